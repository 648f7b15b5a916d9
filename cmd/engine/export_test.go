package engine

// What the engine's external tests, which read real families' operations
// (package families imports this one), need of its unexported parts.

var (
	CompletionKind  = completionKind
	ConfirmQuestion = confirmQuestion
	ParseFlags      = parseFlags
	ResolveKind     = resolveKind
)

var NearNames = nearNames

// NameRefs are the names in an Input that resolution looks up.
func NameRefs(op *Placed, in Input) []nameRef { return nameRefs(op, in) }
