package sandbox

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http/httptest"
	"testing"
)

func sendForm(t *testing.T, s *Server, path string, fields map[string]string, file, content string) reply {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	if file != "" {
		p, _ := w.CreateFormFile("files", file)
		p.Write([]byte(content))
	}
	w.Close()
	req := httptest.NewRequest("POST", "http://sandbox.test"+path, &buf)
	req.Header.Set("Authorization", "Bearer "+s.AdminToken())
	req.Header.Set("Content-Type", w.FormDataContentType())
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	r := reply{status: rec.Code}
	if err := json.Unmarshal(rec.Body.Bytes(), &r.body); err != nil {
		t.Fatalf("POST %s: body is not JSON: %q", path, rec.Body.String())
	}
	return r
}

func TestRevisionsAreUploadedAsFormsAndKept(t *testing.T) {
	s := New(Options{})
	libs := send(t, s, s.AdminToken(), "GET", "/api/v2/custom_component_libraries", nil)
	lib := libs.body["data"].([]any)[0].(map[string]any)["id"].(string)
	base := "/api/v2/custom_component_libraries/" + lib + "/revisions"

	// The demo library starts with revision 1.0.0.
	r := sendForm(t, s, base, map[string]string{"version_bump": "minor"}, "index.js", "export default 1")
	if r.status != 200 {
		t.Fatalf("create: %d %v", r.status, r.body)
	}
	rev := r.body["data"].(map[string]any)
	if rev["custom_component_library_id"] != lib || rev["version"] != "1.1.0" {
		t.Errorf("first revision: %v", rev)
	}
	r = sendForm(t, s, base, map[string]string{"version_bump": "minor"}, "index.js", "export default 2")
	if v := r.body["data"].(map[string]any)["version"]; v != "1.2.0" {
		t.Errorf("minor bump of 1.1.0 gave %v", v)
	}
	list := send(t, s, s.AdminToken(), "GET", base, nil)
	if n := len(list.body["data"].([]any)); n != 3 {
		t.Errorf("list has %d revisions, want 3 (the demo's 1.0.0 and two new)", n)
	}
	files := send(t, s, s.AdminToken(), "GET", base+"/"+rev["id"].(string)+"/files", nil)
	f := files.body["data"].([]any)[0].(map[string]any)
	if f["filepath"] != "index.js" || f["file_contents"] != "export default 1" {
		t.Errorf("files of the first revision: %v", f)
	}

	for name, tc := range map[string]struct {
		fields map[string]string
		file   string
	}{
		"no files":          {map[string]string{"version_bump": "minor"}, ""},
		"bad bump":          {map[string]string{"version_bump": "patch"}, "a.js"},
		"version not given": {map[string]string{"version_bump": "specify_version"}, "a.js"},
		"id not a uuid":     {map[string]string{"version_bump": "dev", "id": "x"}, "a.js"},
	} {
		if r := sendForm(t, s, base, tc.fields, tc.file, "x"); r.status != 400 {
			t.Errorf("%s: got %d %v, want 400", name, r.status, r.body)
		}
	}
	if r := send(t, s, s.AdminToken(), "POST", base, map[string]any{"version_bump": "minor"}); r.status != 400 {
		t.Errorf("a JSON body: got %d, want 400 (the endpoint takes multipart/form-data)", r.status)
	}
	if r := sendForm(t, s, "/api/v2/custom_component_libraries/nope/revisions", map[string]string{"version_bump": "dev"}, "a.js", "x"); r.status != 404 {
		t.Errorf("unknown library: got %d, want 404", r.status)
	}
}
