package access

import "testing"

// One decoder reads an access list for the report, access-list and org as
// code: ids as text whether sent as strings or numbers, and an inherited
// source only when it names a folder.
func TestDecodeAccessList(t *testing.T) {
	al, err := DecodeAccessList([]byte(`{
	  "group": [{"subject":{"id":7,"type":"group"},"sources":{"direct":true,"universal":false,"groups":[],"inherited":null},"accessLevel":"edit"}],
	  "user": [{"subject":{"id":"user_a","type":"user"},"sources":{"direct":false,"groups":[{"id":"7","type":"group"}],"inherited":{"id":"app_7","type":"folder"}},"accessLevel":"use"},
	           {"subject":{"id":"user_b","type":"user"},"sources":{"direct":false,"inherited":{}},"accessLevel":"use"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	g, a, b := al["group"][0], al["user"][0], al["user"][1]
	if g.SubjectID() != "7" || a.SubjectID() != "user_a" || g.AccessLevel != "edit" {
		t.Errorf("ids %q %q, level %q", g.SubjectID(), a.SubjectID(), g.AccessLevel)
	}
	if g.Inherits() || !a.Inherits() || b.Inherits() {
		t.Errorf("Inherits: group %v, user_a %v, user_b %v; want false, true, false", g.Inherits(), a.Inherits(), b.Inherits())
	}
	if !OwnGrant(g) || !OwnGrant(a) || OwnGrant(b) {
		t.Error("OwnGrant: a direct grant and an inherited one are the subject's own; neither is not")
	}
	if _, err := DecodeAccessList([]byte(`[1]`)); err == nil {
		t.Error("an array decoded as an access list")
	}
}

// An object's id is one path segment, whatever it holds: even ".." reads
// the access list of that object, not another endpoint.
func TestAccessListReadKeepsTheIDOneSegment(t *testing.T) {
	o := &Org{}
	for id, want := range map[string]string{"app_7": "/permissions/accessList/folder/app_7", "..": "/permissions/accessList/folder/%2E%2E", "a/b": "/permissions/accessList/folder/a%2Fb"} {
		if got := o.accessListReq("folder", id).Req.Path; got != want {
			t.Errorf("id %q: path %q, want %q", id, got, want)
		}
	}
}
