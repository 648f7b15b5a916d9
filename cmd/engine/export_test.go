package engine

import (
	"strconv"

	"github.com/orgctl/orgctl/client/bulk"
)

// What the engine's external tests, which read real families' operations
// (package families imports this one), need of its unexported parts.

var (
	CompletionKinds = completionKinds()
	ConfirmQuestion = confirmQuestion
	FamilyIDKinds   = familyIDKinds
	FieldValue      = fieldValue
	KeyKinds        = keyKinds
	NoCompletion    = noCompletion
	ParamKinds      = paramKinds
	ParseFlags      = parseFlags
	ResolveKinds    = resolveKinds()
)

// BulkJob is a bulk job over rows of a file, as the check pass sees it.
type BulkJob = bulkJob

// NewTestJob is a job of op run as command with the given arguments and
// flags on the command line, over a file of format.
func NewTestJob(op *Op, command string, given []string, flags map[string][]string, format bulk.Format) *BulkJob {
	return &bulkJob{op: op, o: bulkOptions{format: format},
		base: Input{Command: command, Args: given, Values: flags}, cols: newBulkColumns(op, len(given))}
}

func (j *bulkJob) Command() string                               { return j.base.Command }
func (j *bulkJob) RowInput(row bulk.Row) (Input, []string, bool) { return j.rowInput(row) }
func (j *bulkJob) CheckRow(in Input) (*Call, []string)           { return j.checkRow(in) }
func (j *bulkJob) RowKeys(in Input) []string                     { return j.rowKeys(in) }
func (op *Op) ArgKind(i int) string                              { return op.argKind(i) }
func (fd *Field) ObjectKind() string                             { return fd.kind() }

// ColumnTarget is what a column named name gives: a field, or the
// argument at index arg when field is nil.
func (j *bulkJob) ColumnTarget(name string) (field *Field, arg int, ok bool) {
	t, ok := j.cols.target(name)
	return t.field, t.arg, ok
}

var NearNames = nearNames

// Header is what the header row cols says: its problems, then its
// unknown and missing columns.
func (j *bulkJob) Header(cols []string) []string {
	h := j.header(cols)
	out := h.probs
	for _, c := range h.unknown {
		out = append(out, "unknown column "+strconv.Quote(c))
	}
	for _, c := range h.missing {
		out = append(out, "missing column "+strconv.Quote(c))
	}
	return out
}

// LikelyMaps is the --map guessed for each unknown column.
func (j *bulkJob) LikelyMaps(unknown []string) map[string]string {
	return j.cols.likelyMaps(unknown, j.header(unknown).have)
}
