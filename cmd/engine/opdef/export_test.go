package opdef

// What the package's external tests, which read real families' operations
// (package families imports this one through cmd/engine), need of its
// unexported parts.

var FieldValue = fieldValue
