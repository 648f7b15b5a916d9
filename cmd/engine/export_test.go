package engine

// What the engine's external tests, which read real families' operations
// (package families imports this one), need of its unexported parts.

var (
	CompletionKind  = completionKind
	ConfirmQuestion = confirmQuestion
	ParseFlags      = parseFlags
	ResolveKind     = resolveKind
)
