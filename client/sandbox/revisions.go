package sandbox

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"sort"
	"time"

	"github.com/orgctl/orgctl/client/spec"
)

// Custom component library revisions are uploaded as multipart/form-data; the sandbox keeps them
// per library with their files so list and files answer with what was uploaded.

// addRevisionHandlers adds the handlers of library revisions.
func addRevisionHandlers(custom map[string]handler) {
	custom["POST /custom_component_libraries/{libraryId}/revisions"] = createRevision
	custom["GET /custom_component_libraries/{libraryId}/revisions"] = listRevisions
	custom["GET /custom_component_libraries/{libraryId}/revisions/{revisionId}/files"] = revisionFiles
}

// formFields reads a multipart body into an object: text parts as strings, file parts as
// {"filename", "content"}.
func formFields(contentType string, body []byte) (obj, string) {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil || params["boundary"] == "" {
		return nil, "missing multipart boundary"
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	out := obj{}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return out, ""
		}
		if err != nil {
			return nil, err.Error()
		}
		b, err := io.ReadAll(part)
		if err != nil {
			return nil, err.Error()
		}
		if part.FileName() != "" {
			out[part.FormName()] = obj{"filename": part.FileName(), "content": string(b)}
		} else {
			out[part.FormName()] = string(b)
		}
	}
}

func revisionsKey(lib string) string { return "/custom_component_libraries/" + lib + "/revisions" }

func createRevision(c *call) (int, any) {
	lib := c.params["libraryId"]
	if _, l := c.org.find("/custom_component_libraries", lib); l == nil {
		return notFound("/custom_component_libraries", lib)
	}
	bump, _ := c.body["version_bump"].(string)
	switch bump {
	case "minor", "major", "dev", "specify_version":
	case "":
		return 400, errBody(`"version_bump" is required`)
	default:
		return 400, errBody(`"version_bump" must be one of: minor, major, dev, specify_version`)
	}
	files, ok := c.body["files"].(map[string]any)
	if !ok {
		return 400, errBody(`"files" is required (a file part)`)
	}
	key := revisionsKey(lib)
	revs := c.org.Collections[key]
	version := nextVersion(revs, bump)
	if bump == "specify_version" {
		v, _ := c.body["version"].(string)
		if v == "" {
			return 400, errBody(`"version" is required with version_bump specify_version`)
		}
		version = v
	}
	id := uuidFor(22, c.org.next(key))
	if v, _ := c.body["id"].(string); v != "" {
		if !spec.IsUUID(v) {
			return 400, errBody(`"id" must be a UUID`)
		}
		for _, r := range revs {
			if r["id"] == v {
				return 409, errBody("A revision with id %q already exists", v)
			}
		}
		id = v
	}
	rev := c.org.storeRevision(lib, id, version, fmt.Sprint(files["filename"]), fmt.Sprint(files["content"]), c.now)
	return 200, one(c.present(key, rev))
}

// addRevision seeds a revision with one file.
func (o *org) addRevision(lib, version, file, content string, at time.Time) obj {
	return o.storeRevision(lib, uuidFor(22, o.next(revisionsKey(lib))), version, file, content, at)
}

func (o *org) storeRevision(lib, id, version, file, content string, at time.Time) obj {
	key := revisionsKey(lib)
	rev := obj{"id": id, "version": version, "custom_component_library_id": lib,
		"created_at": stamp(at), "updated_at": stamp(at),
		"_files": []any{obj{"filepath": file, "file_contents": content, "created_at": stamp(at), "updated_at": stamp(at)}}}
	o.Collections[key] = append(o.Collections[key], rev)
	return rev
}

// nextVersion bumps the latest semantic version (1.0.0 for the first revision).
func nextVersion(revs []obj, bump string) string {
	major, minor, patch := 0, 0, 0
	if len(revs) > 0 {
		fmt.Sscanf(fmt.Sprint(revs[len(revs)-1]["version"]), "%d.%d.%d", &major, &minor, &patch)
	} else {
		return "1.0.0"
	}
	switch bump {
	case "major":
		return fmt.Sprintf("%d.0.0", major+1)
	case "minor":
		return fmt.Sprintf("%d.%d.0", major, minor+1)
	}
	return fmt.Sprintf("%d.%d.%d-dev", major, minor, patch+1)
}

func listRevisions(c *call) (int, any) {
	lib := c.params["libraryId"]
	if _, l := c.org.find("/custom_component_libraries", lib); l == nil {
		return notFound("/custom_component_libraries", lib)
	}
	key := revisionsKey(lib)
	out := []any{}
	for _, r := range c.org.Collections[key] {
		out = append(out, c.present(key, r))
	}
	return 200, one(out)
}

func revisionFiles(c *call) (int, any) {
	lib, rev := c.params["libraryId"], c.params["revisionId"]
	_, r := c.org.find(revisionsKey(lib), rev)
	if r == nil {
		return 404, errBody("Revision %q of library %q not found", rev, lib)
	}
	files, _ := deepCopy(r["_files"]).([]any)
	sort.SliceStable(files, func(i, j int) bool {
		return fmt.Sprint(files[i].(map[string]any)["filepath"]) < fmt.Sprint(files[j].(map[string]any)["filepath"])
	})
	return 200, one(files)
}
