package engine

import "github.com/orgctl/orgctl/cmd/engine/opdef"

// What an operation is lives in package opdef. The names below are the ones
// the engine's users (families, workflows, tool commands) still reach it by;
// new code uses opdef's own.

type (
	Op       = opdef.Op
	Field    = opdef.Field
	In       = opdef.In
	KindBy   = opdef.KindBy
	Input    = opdef.Input
	Call     = opdef.Call
	FollowUp = opdef.FollowUp
	Org      = opdef.Org
)

const (
	KInt     = opdef.KInt
	KBool    = opdef.KBool
	KStrings = opdef.KStrings
	KKV      = opdef.KKV
	KJSON    = opdef.KJSON
	KTexts   = opdef.KTexts

	InBody  = opdef.InBody
	InQuery = opdef.InQuery
	InPatch = opdef.InPatch
	InLocal = opdef.InLocal

	MaxBodyBytes = opdef.MaxBodyBytes
)

var (
	SetPath       = opdef.SetPath
	LookupPath    = opdef.LookupPath
	LooseJSON     = opdef.LooseJSON
	QueryText     = opdef.QueryText
	PointerEscape = opdef.PointerEscape
	ReadBodyFile  = opdef.ReadBodyFile
	ReadLimited   = opdef.ReadLimited
	BodyTooLarge  = opdef.BodyTooLarge

	ConflictKey  = opdef.ConflictKey
	LookFirst    = opdef.LookFirst
	FolderExists = opdef.FolderExists
	MemberExists = opdef.MemberExists
	GrantExists  = opdef.GrantExists
)

// SortedKeys is used where map order would make output unstable.
func SortedKeys[V any](m map[string]V) []string { return opdef.SortedKeys(m) }
