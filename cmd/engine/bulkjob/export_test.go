package bulkjob

import (
	"strconv"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/engine/send"
)

// What the package's external tests, which read real families' operations
// (package families imports cmd/engine, which imports this one), need of
// its unexported parts.

// BulkJob is a bulk job over rows of a file, as the check pass sees it.
type BulkJob = checkPass

// NewTestJob is a job of op run as command with the given arguments and
// flags on the command line, over a file of format.
// find, when set, stands in for send.Find.
func NewTestJob(find func(*opdef.Placed, opdef.Input) send.Found, op *opdef.Placed, command string, given []string, flags map[string][]string, format bulk.Format) *BulkJob {
	spec := &jobSpec{op: op, o: Options{format: format}, base: opdef.Input{Command: command, Args: given, Values: flags}}
	return &checkPass{fileInput: &fileInput{jobSpec: spec, cols: newBulkColumns(op, len(given))}, find: find}
}

func (j *checkPass) Command() string                                     { return j.base.Command }
func (j *checkPass) RowInput(row bulk.Row) (opdef.Input, []string, bool) { return j.rowInput(row) }
func (j *checkPass) CheckRow(in opdef.Input) (*opdef.Call, []string) {
	c, _, probs := j.checkRow(in)
	return c, probs
}
func (j *checkPass) RowKeys(in opdef.Input) []string { return j.rowKeys(in) }

// ColumnTarget is what a column named name gives: a field, or the
// argument at index arg when field is nil.
func (j *checkPass) ColumnTarget(name string) (field *opdef.Field, arg int, ok bool) {
	t, ok := j.cols.target(name)
	return t.field, t.arg, ok
}

// Header is what the header row cols says: its problems, then its
// unknown and missing columns.
func (j *checkPass) Header(cols []string) []string {
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
func (j *checkPass) LikelyMaps(unknown []string) map[string]string {
	return j.cols.likelyMaps(unknown, j.header(unknown).have)
}
