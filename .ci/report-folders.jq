# The folders `permissions report` covers, counted from `folders list -o json`:
# app, resource and workflow folders whose topmost ancestor is the type's root.
INDEX(.id | tostring) as $by
| def top: if .parent_folder_id == null or $by[.parent_folder_id | tostring] == null then . else $by[.parent_folder_id | tostring] | top end;
[.[] | select(.folder_type == "app" or .folder_type == "resource" or .folder_type == "workflow") | select(top | .name == "root")]
| length
