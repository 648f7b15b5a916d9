package bulkjob

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/csvguard"
)

// writeFailed writes --failed: the rows that failed or were invalid, read
// again from the input, in its own columns plus a reason, so the file can
// be fixed and run again (with --ignore-unknown, as "reason" names no flag).
func (j *fileInput) writeFailed(failedRows map[int]string) error {
	out, err := os.Create(j.o.failed)
	if err != nil {
		return err
	}
	defer out.Close()
	w := bufio.NewWriter(out)
	in, err := j.src.open()
	if err != nil {
		return err
	}
	defer in.Close()
	rd := j.reader(in)
	var cw *output.CSVWriter
	var header []string
	if j.o.format == bulk.CSV {
		if header, _, err = rd.Header(); err != nil {
			return err
		}
		cw = output.NewCSVWriter(w)
		cw.Write(append(append([]string(nil), header...), "reason"))
	}
	for len(failedRows) > 0 {
		row, err := rd.Next()
		if err == io.EOF {
			break
		}
		var p *bulk.Problem
		if errors.As(err, &p) {
			// A row unfit to send: written as the line held it.
			if reason, failed := failedRows[p.Row]; p.Row > 0 && failed {
				delete(failedRows, p.Row)
				if cw != nil {
					// The line's cells as read, a guard orgctl wrote taken off
					// as a valid row's are: the writer puts it on again, once.
					cells := make([]string, len(p.Record))
					for i, v := range p.Record {
						cells[i] = csvguard.Text(v)
					}
					for len(cells) < len(header) {
						cells = append(cells, "")
					}
					cw.Write(append(cells, reason))
				} else {
					b, _ := json.Marshal(map[string]string{"line": strings.Join(p.Record, ""), "reason": reason})
					w.Write(append(b, '\n'))
				}
			}
			continue
		}
		if err != nil {
			return err
		}
		reason, failed := failedRows[row.N]
		if !failed {
			continue
		}
		delete(failedRows, row.N)
		if cw != nil {
			cells := make([]string, len(header))
			for i, h := range header {
				if v := row.Values[h]; len(v) > 0 {
					cells[i] = v[0]
				}
			}
			cw.Write(append(cells, reason))
			continue
		}
		obj := map[string]any{}
		for k, v := range row.Values {
			if len(v) == 1 {
				obj[k] = v[0]
			} else {
				obj[k] = v
			}
		}
		obj["reason"] = reason
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(obj)
		w.Write(b.Bytes())
	}
	if cw != nil {
		if err := cw.Flush(); err != nil {
			return err
		}
	}
	return w.Flush()
}
