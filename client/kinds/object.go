package kinds

import (
	"encoding/json"
	"strings"
)

// Object is one object of a kind as a lookup found it (client/resolve
// finds them; what only declares an operation names them without the
// network).
type Object struct {
	ID  string
	Key string
	// Fields are the object as listed (nil when it came from a Store).
	Fields map[string]any
	// Raw is the object as the list answered it, byte for byte (nil when
	// it came from a Store or a single read).
	Raw json.RawMessage
	// Labels are the kind's label fields, for messages.
	Labels []string
	// Protected says why the org cannot do without the object ("" for an
	// ordinary one), as the registry tells from the listed object.
	Protected string
}

// Describe is the key with its labels, for messages: "ada@example.com (Ada Lovelace)".
func (o Object) Describe() string {
	parts := make([]string, 0, len(o.Labels))
	for _, l := range o.Labels {
		if l != "" {
			parts = append(parts, l)
		}
	}
	if len(parts) == 0 {
		return o.Key
	}
	return o.Key + " (" + strings.Join(parts, " ") + ")"
}
