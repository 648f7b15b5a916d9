// Package sandbox owns orgctl's sandbox: an in-memory implementation of the management API (every
// published operation under /api/v2 plus the unpublished POST /apps) that enforces the service's
// documented rules. It is a product feature: users run it with `orgctl sandbox serve` and
// `orgctl --sandbox` to try orgctl and rehearse scripts without a production org, and orgctl's own
// end-to-end tests run the real binary against it. Hooks that only tests need live in export_test.go
// (this package's tests) and in the sandboxtest sub-package (other packages' tests), never here.
//
// It must not import cmd, output or cobra: it plays the server and knows no flags or formats. The
// exceptions are two leaves for its state files: output/atomicfile, which saves them, and
// output/fsguard, which refuses a directory others could write and a symlinked lock. Of ratebudget
// it uses only the price list (ListPrice and UnknownCost), the service's, kept once; its point
// budget's accounting is its own, deliberately independent of the client's ledger.
// It must not read ../shared at run time: routes, request schemas and example responses come from
// package client/spec, the published description as code, whose validator checks request bodies
// here as it checks orgctl's requests before they are sent.
//
// # URL layout
//
// The primary org is served at /api/v2/...; a space named N at /space/N/api/v2/... (its base URL is
// {sandbox}/space/N). Any Host header is accepted. The `domain` the sandbox reports for a space is
// "<request Host>/space/<name>", so scheme:// + domain is the space's base URL. The published
// /access_tokens/:accessTokenId is served at /access_tokens/{id}.
//
// # Wire format
//
// Lists: {"success":true,"data":[...],"total_count":N,"next_token":null|"...","has_more":bool} where
// the operation publishes those fields (others: {"success":true,"data":[...]}); `limit` (1-100) and the
// opaque `next_token` page; no `limit` returns everything. Objects: {"success":true,"data":{...}}
// (role routes publish bare objects and get them). Errors: {"success":false,"message":"..."}; request
// bodies are validated against the published schema (required fields, types, enums, patterns,
// JSON-Patch ops) and a 400 names the field; so is a path or query parameter outside the values the
// description lists for it (orgctl sends such a value with a notice). Unknown ids: 404. Bodies are encoded as the live API
// encodes them: no HTML escaping (`R&D`, not `R\u0026D`) and no newline after the closing brace.
// One difference remains: an object's keys come in alphabetical order, not in the live API's order.
// The recordings in ../shared/api/recordings are the reference: a test replays each in order and
// compares every answer's shape (each key path, nested and in arrays, with its JSON type) per
// operation.
//
// # Folders
//
// Every org (primary, space, empty or demo) is made with the system folders the recorded live org
// has (is_system_folder true, ids "TYPE_N" with legacy_id the same): each type's parentless `root`
// (app, resource, workflow and "file", a folder_type outside the published enum, kept as recorded),
// `archive` under the app and workflow roots, and `personalRoot`, a second parentless app folder.
// Resource folders are numbered apart from the others (resource_1 beside app_1 ... file_6), as on
// the recorded org. GET /folders lists by id as text (app_1, app_10, app_2, ...), as recorded: a
// folder may come before its parent.
//
// A user who has signed in (last_active set) has "(LEGACY_ID) First Last's Drafts" under
// personalRoot and "(LEGACY_ID) First Last's Trash" under the Drafts. On the recorded org only the
// user who has signed in has them, so here users who never signed in have none: API-created users,
// synthetic load users (`sandbox serve --users N` adds no folder however large N is) and the empty
// org's admin. In the demo org the admin has signed in (its folders come after the demo's, whose
// ids stay put); nobody else has. The other users' sign-ins (seats.go) are made-up history laid
// back from when the sandbox is made, and add no folder. listObjects lists no parentless folder (no root, no
// personalRoot), and nothing of a user's personal tree (Drafts, Trash): those are one user's own,
// not shared, and an access review covers none of them.
//
// A system folder cannot be changed (PATCH) or deleted, and the built-in groups (admin, whose
// members are admins, and All Users, which holds everyone and which a created user joins) cannot be deleted or renamed: 422
// {"success":false,"message":...}, as the published 422 "Error with folder structure"; their access
// settings change as any group's do. editor and viewer are made with every org too, but nothing
// recorded says the API keeps them, so they change and go as other groups do.
//
// # Tokens and scopes
//
// Bearer tokens. An operation needs one of the scopes its 4.0 description names ("Requires the
// `users:write` or `user_attributes:write` scope"; spec.Operation.AnyScope): the 43 of spec.Scopes,
// such as users, groups, folders, apps, config_vars, custom_components, permissions, resources,
// source_control, each :read|:write; source_control:deploy|test_deploy|releases_read|releases_write;
// organization:read|write beside organizations:read|write; usage (or
// usage:organization|spaces|license); and data_security:read (no published path). Only
// /info/ip_allowlist names none: it needs only a valid token. Write implies read. Missing/unknown token: 401; missing scope: 403
// `Forbidden: API token is missing one of "users:read"`. POST /access_tokens (org admins only) returns
// the value once; reads show last4 only. Unknown scopes are dropped at creation, as published.
//
// # Spaces
//
// The primary org and each space have their own data, users, admins and tokens. A space token works
// only on its own space (elsewhere 401). A primary-org token works on a space only when its owner is a
// primary-org admin who is also an admin (is_admin user) of that space; otherwise 403 explaining why.
// POST /spaces (primary org only) creates an empty space whose creator becomes its admin.
//
// # Point budget
//
// One budget per sandbox (the primary org and all its spaces share it): Options.Points per sliding
// Options.Window, charged at arrival after authentication, at ratebudget.ListPrice of the matched
// route's path (Apps, Folders, Users 2; Permissions 10; the other listed families 5); a family the
// list lacks, or a request that matches no route, costs ratebudget.UnknownCost (10). A call
// that would exceed it gets 429 {"success":false,"message":"Rate limit exceeded..."} with Retry-After
// (seconds) and starts a block: every call for Options.Block gets 429 and is not processed.
//
// # T-SQL resources
//
// The published API has no field for the T-SQL connector version or Windows auth; the sandbox carries
// them in the resource's `options`: connector_version ("1.0"|"2.0"|"3.0"), windows_auth (bool) and
// params_from_connection_string (object). POST /resources accepts every type of the published Resource
// enum (the create enum lists six) and any options object; GET/POST/PATCH of one resource return
// `options` (the published Resource schema has no such field). For mssql with windows_auth true every
// params key must pass changes.CheckODBCKey, else 400 `Unsupported ODBC connection string parameter
// "<key>". Only a fixed set of ODBC attributes may be supplied via connection params.`
//
// # Demo org
//
// Unless Options.Empty, New seeds a deterministic demo org (fixed timestamps, counter ids): users
// (admins, non-admins, one disabled), groups with members, folders of every type (incl. "file"), apps,
// a theme, production and staging environments, resources (postgresql, restapi, mssql 1.0/2.0/3.0, a
// Windows-auth one with allowed params and one (2.0) with disallowed params saved before the allowlist,
// vertica, bigid, mongodb of unknown and 3.4 server version, retoolEmail, jdbc: every announced change
// of client/changes gives a finding), resource configurations, SSO,
// source control config and settings, config vars, user attributes, pending access requests, a user
// invite (in the support group), a role, a workflow, and a space "eng" with its own admin
// (eng.lead@sandbox.example) and data. The primary admin is admin@sandbox.example and is also an
// admin of "eng". It has every kind of access: group grants on folders (Operations, and
// Operations/Escalations nested in it) and on an app, direct user grants (dev.lee on Refund
// Console, the disabled former.employee on Finance), the default groups' universal access and
// support's; the disabled user is still in groups.
//
// # Seats and usage
//
// Users carry seat_type (builder for admins, externalUser for @partner.example addresses,
// internalUser otherwise; 4.0 adds the field) and a last_active laid out back from Options.Now
// when the sandbox is made, so "not seen for 90 days" holds on any day: in the demo the admin
// signed in yesterday, dev.lee 12 days ago, ana.viewer 200, the disabled former.employee 300, and
// priya.ops (an admin) never; synthetic user n of N n*400/N days ago, every tenth never, every
// fifth a builder and every seventh an external seat. Their views and saves of apps are kept per
// user, app and day (apps they reach through their grants), and GET /usage/user_summary,
// /usage/user_details and /usage/app_summary sum them over start_date..end_date (end_date:
// start_date + 30 days or yesterday, whichever is first). POST /users/{userId}/logout answers as
// 4.0 publishes it when the route is served.
//
// # Access
//
// GET /permissions/accessList and POST /permissions/listObjects with include_inherited_access
// answer effective access as the spec describes it (access.go): a subject's level is the highest of
// its direct grant, the grants on every folder above the object, its groups' universal access to
// the object's kind and, for users and invites, their groups' levels; "sources" names each
// (direct, universal, groups, inherited: the nearest folder giving the highest inherited level).
// Users are listed whether active or not; subject ids are strings. Without
// include_inherited_access, listObjects answers the subject's own grants.
//
// # Rehearsals
//
// Options.Users adds that many synthetic users to the primary org (user000001@load.example, ...);
// Options.Groups and Options.Folders add groups sharing them and app folders nested ten deep, an app
// in each, each group granted use on one folder (seedLoadAccess), for access-review rehearsals;
// Options.Latency holds every answer back (the request has taken effect; a client that leaves first
// gets none). Requests reports the most recent Options.RequestLog requests, so a long-running
// server's memory stays bounded.
//
// # File transport
//
// NewFileTransport serves requests in-process against a JSON state file, locking path+".lock" with
// gofrs/flock around load-serve-save (saved with output/atomicfile, so a crash leaves the old state
// or the new), so concurrent processes lose no writes.
package sandbox
