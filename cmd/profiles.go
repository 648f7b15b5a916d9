package cmd

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/atomicfile"
	"github.com/orgctl/orgctl/output/csvguard"
)

// acrossProfiles takes over a command line that names --profiles: the
// command runs once per profile, each run a process of its own (its own
// ledger, journal and token, as if typed with --profile), at the same time,
// and their outputs are printed as one, each record led by its profile.
// Everything that can be refused is refused here, before any request.
func acrossProfiles(f *cli.Factory, c *cobra.Command, args []string) error {
	fl := c.Flags()
	if fl.Lookup("profiles") == nil || !fl.Changed("profiles") {
		return nil
	}
	list, _ := fl.GetString("profiles")
	how := c.Annotations[engine.ProfilesAnnotation]
	if fl.Changed("profile") {
		return cli.UsageErrorf("--profiles and --profile cannot be used together: --profiles %s names every profile to run in", list)
	}
	for _, v := range []string{"ORGCTL_TOKEN", "ORGCTL_BASE_URL"} {
		if os.Getenv(v) != "" {
			return cli.UsageErrorf("--profiles: %s is set, and would apply to every profile; unset it so that each profile uses its own login", v)
		}
	}
	if how == engine.ProfilesWrite && fl.Lookup("yes") != nil {
		yes, _ := fl.GetBool("yes")
		dry, _ := fl.GetBool("dry-run")
		if !yes && !dry {
			return cli.UsageErrorf("%s --profiles changes several Spaces at once and asks no questions: review with --dry-run, then pass --yes", c.CommandPath())
		}
	}
	names, err := profileNames(f, list)
	if err != nil {
		return err
	}
	cfg, p, err := cli.PrinterFor(f)
	if err != nil {
		return err
	}
	// Each profile's run picks the columns; the joined table keeps them.
	p.Opts.Columns = nil
	if cfg.Sandbox {
		return cli.UsageErrorf("--profiles runs in the Spaces of logged-in profiles; --sandbox has only one org")
	}
	run := &profilesRun{f: f, names: names, how: how, format: cfg.Output, p: p,
		takesValue: func(short string) bool {
			v := fl.ShorthandLookup(short)
			return v != nil && v.NoOptDefVal == ""
		}}
	if dry, _ := fl.GetBool("dry-run"); dry && c.Annotations[engine.DryRunAnnotation] == engine.DryRunPlan && !p.Opts.Structured() {
		run.text = true
	}
	if flag := c.Annotations[engine.ProfilesSinceAnnotation]; flag != "" && fl.Changed(flag) {
		path, _ := fl.GetString(flag)
		if err := earlierOfEach(flag, path, names); err != nil {
			return err
		}
	}
	if flag := c.Annotations[engine.ProfilesWriteAnnotation]; flag != "" && fl.Changed(flag) {
		run.writeFlag = flag
		run.write, _ = fl.GetString(flag)
	}
	if readsStdin(args) {
		// Read once, here, before any request: each run gets the same
		// bytes, where the first to read would leave the others nothing.
		if f.IO.InTTY {
			return cli.UsageErrorf("%s --profiles reads stdin (-), which is a terminal: pipe the input in (... < FILE), read once and given to every profile", c.CommandPath())
		}
		if run.stdin, err = io.ReadAll(f.IO.In); err != nil {
			return fmt.Errorf("reading stdin: %w", err)
		}
	}
	c.RunE = func(c *cobra.Command, _ []string) error { return run.run(c.Context(), args) }
	c.Run = nil
	return nil
}

// readsStdin reports a command line that names stdin: "-" as an argument
// or a flag's value (--from -, --body=-).
func readsStdin(args []string) bool {
	for _, a := range args {
		if a == "-" || strings.HasPrefix(a, "--") && strings.HasSuffix(a, "=-") {
			return true
		}
	}
	return false
}

// profileNames reads --profiles: "all" is every profile of the config
// file; each name must be one (exit 2 otherwise, naming it). A name read
// from the file is checked as one typed is: the file may have been
// written by hand, and nothing is sent to any Space before every name
// has passed.
func profileNames(f *cli.Factory, list string) ([]string, error) {
	var names []string
	if strings.TrimSpace(list) == "all" {
		names = settings.ProfileNames()
		if len(names) == 0 {
			return nil, cli.UsageErrorf("--profiles all: no profiles are defined yet; log in to each Space with `orgctl auth login --space NAME`")
		}
	} else {
		seen := map[string]bool{}
		for _, n := range strings.Split(list, ",") {
			if n = strings.TrimSpace(n); n != "" && !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 {
		return nil, cli.UsageErrorf("--profiles: name the profiles to run in (NAME,NAME), or all")
	}
	for _, n := range names {
		if _, err := f.Sources.LoadProfile(n, settings.LoadOptions{Families: f.Families, Warn: func(string) {}}); err != nil {
			return nil, fmt.Errorf("--profiles: %w", err)
		}
	}
	return names, nil
}

// earlierOfEach checks an earlier report (the file of --since) before
// any profile's run starts: each profile named must have rows in its
// PROFILE column. A report without one is one Space's, refused for a run
// in several: its ORG column cannot say which Space a row is of, since
// profiles may share a base URL, and a row compared in the wrong Space
// reads as revoked there.
func earlierOfEach(flag, path string, names []string) error {
	fh, err := os.Open(path)
	if err != nil {
		return cli.UsageErrorf("--%s: %v", flag, err)
	}
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil || len(recs) == 0 {
		return nil // the command's own reading says what is wrong with it
	}
	col := slices.IndexFunc(recs[0], func(h string) bool { return strings.TrimSpace(h) == access.ProfileColumn })
	if col < 0 {
		if len(names) == 1 {
			return nil
		}
		return cli.UsageErrorf("--%s %s has no %s column: it is one Space's report, and --profiles compares each Space with its own rows; "+
			"compare it in its own Space (--profile NAME), or start from a report of every Space (--profiles ... -o csv, or --write)", flag, path, access.ProfileColumn)
	}
	has := map[string]bool{}
	for _, rec := range recs[1:] {
		if col < len(rec) {
			has[csvguard.Text(rec[col])] = true
		}
	}
	var missing []string
	for _, n := range names {
		if !has[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return cli.UsageErrorf("--%s %s has no row of profile %s: compare a Space with a report that holds it (drop it from --profiles, or run it with --profile NAME and no --%s)",
			flag, path, strings.Join(missing, ", "), flag)
	}
	return nil
}

type profilesRun struct {
	f *cli.Factory
	// takesValue says whether the command's shorthand flag short takes a
	// value (see stripFlags).
	takesValue func(short string) bool
	names      []string
	how        string
	format     string
	p          *output.Printer
	// text: the runs print text, not records (a dry run's requests); each
	// profile's lines are printed led by its name.
	text bool
	// write is the file the command keeps its report in (its flag
	// writeFlag): each profile's run writes its own into a private
	// directory, and the parent joins them, each row led by its profile.
	write, writeFlag string
	// stdin is what the parent read from its stdin, for a command line
	// that names it ("-"): each profile's run reads the same bytes.
	stdin []byte
}

// profileResult is what one profile's run left.
type profileResult struct {
	out  bytes.Buffer
	code int
	// signal names the signal that ended the run, when one did before
	// the run could handle it.
	signal string
}

func (r *profilesRun) structured() bool { return r.p.Opts.Structured() }

func (r *profilesRun) run(ctx context.Context, args []string) error {
	childArgs := stripFlags(args, map[string]bool{"profiles": true, "output": true, "o": true, "jq": true, "template": true}, r.takesValue)
	format := "csv"
	if r.text {
		format = r.format
	}
	if r.structured() {
		format = "json"
		childArgs = stripFlags(childArgs, map[string]bool{"columns": true}, r.takesValue)
	}
	exe, err := self()
	if err != nil {
		return err
	}
	var keep string // the directory of the profiles' --write files
	if r.write != "" {
		childArgs = stripFlags(childArgs, map[string]bool{r.writeFlag: true}, r.takesValue)
		if keep, err = os.MkdirTemp("", "orgctl-profiles-"); err != nil {
			return err
		}
		defer os.RemoveAll(keep)
	}
	// The parent's pipe: its write end stays open here while the runs
	// last, and each run watches its read end (watchParent).
	watchR, watchW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer watchW.Close()
	defer watchR.Close()
	results := make([]*profileResult, len(r.names))
	var errMu sync.Mutex
	var wg sync.WaitGroup
	for i, name := range r.names {
		res := &profileResult{}
		results[i] = res
		wg.Add(1)
		go func() {
			defer wg.Done()
			argv := append([]string{"--profile", name, "-o", format}, childArgs...)
			if keep != "" {
				argv = withFlag(argv, "--"+r.writeFlag, keptFile(keep, i))
			}
			stderr := &prefixWriter{w: r.f.IO.Err, mu: &errMu, prefix: "[" + name + "] "}
			r.runProfile(ctx, exe, argv, watchR, res, stderr)
		}()
	}
	wg.Wait()
	if err := r.print(results); err != nil {
		return err
	}
	if keep != "" {
		if err := r.keep(keep, results); err != nil {
			return err
		}
	}
	return r.verdict(results)
}

// runProfile runs one profile's run to its end. The thread that starts
// it stays locked to this goroutine until the run has ended: on Linux the
// run's death signal fires when that thread ends, and must fire only when
// the parent dies.
func (r *profilesRun) runProfile(ctx context.Context, exe string, argv []string, watch *os.File, res *profileResult, stderr *prefixWriter) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cmd := exec.CommandContext(ctx, exe, argv...)
	cmd.Env = childEnv(r.f.IO.OutTTY)
	cmd.Stdout = &res.out
	cmd.Stderr = stderr
	if r.stdin != nil {
		cmd.Stdin = bytes.NewReader(r.stdin)
	}
	asChild(cmd, watch)
	// Only a signal cancels ctx: the run gets the one the parent got, once.
	cmd.Cancel = func() error {
		sig := cli.SignalOf(ctx)
		if sig == nil {
			sig = os.Interrupt
		}
		return forward(cmd.Process, sig)
	}
	err := cmd.Run()
	stderr.flush()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.code = ee.ExitCode()
		if name, code, ok := endedBy(ee.ProcessState); ok {
			res.code, res.signal = code, name
		} else if res.code < 0 {
			res.code = cli.ExitFailure
		}
	case cmd.ProcessState != nil && cmd.ProcessState.Exited():
		// it ended as the signal was forwarded to it: its own status
		res.code = cmd.ProcessState.ExitCode()
	default:
		res.code = cli.ExitFailure
		fmt.Fprintf(stderr, "orgctl: %v\n", err)
	}
}

// withFlag is argv with flag and its value added before any "--".
func withFlag(argv []string, flag, value string) []string {
	i := slices.Index(argv, "--")
	if i < 0 {
		i = len(argv)
	}
	return slices.Insert(slices.Clone(argv), i, flag, value)
}

// keptFile is where profile i's run writes its report.
func keptFile(dir string, i int) string { return filepath.Join(dir, fmt.Sprintf("%d.csv", i)) }

// keep writes the report file of every profile: the CSV each wrote, its
// rows led by a PROFILE column, as -o csv prints the report across
// profiles, so that a later --since compares each Space with its own. It
// is written only when every profile's report is there (an earlier file
// stays as it was): a file that lacked a Space would make the next
// comparison refuse that Space.
func (r *profilesRun) keep(dir string, results []*profileResult) error {
	for i, res := range results {
		if res.code != 0 && res.code != cli.ExitFindings {
			fmt.Fprintf(r.f.IO.Err, "orgctl: --%s %s not written: profile %s did not finish its report\n", r.writeFlag, r.write, r.names[i])
			return nil
		}
	}
	for i := range results {
		if _, err := os.Stat(keptFile(dir, i)); err != nil {
			return nil // a dry run: no profile wrote a report
		}
	}
	var header []string
	var rows [][]string
	for i := range results {
		recs, err := readKept(keptFile(dir, i))
		if err != nil {
			return fmt.Errorf("profile %s: %w", r.names[i], err)
		}
		if header == nil {
			header = append([]string{access.ProfileColumn}, recs[0]...)
		} else if !slices.Equal(header[1:], recs[0]) {
			return fmt.Errorf("profile %s: its report's columns differ from profile %s's", r.names[i], r.names[0])
		}
		for _, rec := range recs[1:] {
			rows = append(rows, append([]string{r.names[i]}, rec...))
		}
	}
	return atomicfile.WriteFunc(r.write, 0o644, func(w io.Writer) error {
		cw := output.NewCSVWriter(w)
		cw.Write(header)
		for _, row := range rows {
			cw.Write(row)
		}
		return cw.Flush()
	})
}

// readKept reads a profile's report file, each cell as it stood before
// the spreadsheet guard (written again when joined).
func readKept(path string) ([][]string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: an empty report", path)
	}
	for _, rec := range recs {
		for j, v := range rec {
			rec[j] = csvguard.Text(v)
		}
	}
	return recs, nil
}

// verdict is the worst exit status of the profiles', with one line for
// each profile that failed. What one Space lacks (exit 3) is not found
// there, said on stderr: a write has nothing to do there, a read found
// it in the others; only what no Space has is not found.
func (r *profilesRun) verdict(results []*profileResult) error {
	worst, absent := 0, 0
	for i, res := range results {
		code := res.code
		if code == cli.ExitNotFound && res.signal == "" {
			absent++
			if !r.f.Quiet() {
				if r.how == engine.ProfilesWrite {
					r.f.IO.Notice("orgctl: profile %s: not there, nothing to do in that Space", r.names[i])
				} else {
					r.f.IO.Notice("orgctl: profile %s: not found in that Space", r.names[i])
				}
			}
			continue
		}
		switch {
		case results[i].signal != "":
			fmt.Fprintf(r.f.IO.Err, "orgctl: profile %s ended by %s (exit %d)\n", r.names[i], results[i].signal, code)
		case code == cli.ExitSIGINT || code == cli.ExitSIGTERM:
			fmt.Fprintf(r.f.IO.Err, "orgctl: profile %s interrupted (exit %d)\n", r.names[i], code)
		case code != 0 && code != cli.ExitFindings:
			fmt.Fprintf(r.f.IO.Err, "orgctl: profile %s failed (exit %d)\n", r.names[i], code)
		}
		if severity(code) > severity(worst) {
			worst = code
		}
	}
	if absent == len(results) {
		worst = cli.ExitNotFound
	}
	if worst == 0 {
		return nil
	}
	return &cli.ExitError{Code: worst}
}

// severityOrder ranks exit statuses, least severe first: findings, then
// refusals before anything was sent, then failures of growing weight, an
// outcome unknown (a write may have been applied) and interruptions last.
var severityOrder = []int{cli.ExitOK, cli.ExitFindings, cli.ExitUsage, cli.ExitNotFound, cli.ExitAuth,
	cli.ExitGaveUp, cli.ExitFailure, cli.ExitOutcomeUnknown, cli.ExitSIGTERM, cli.ExitSIGINT}

func severity(code int) int {
	for i, c := range severityOrder {
		if c == code {
			return i
		}
	}
	return len(severityOrder) // an unknown status: as bad as it gets
}

// print joins the profiles' outputs: for data, one JSON array of every
// profile's records, each with its "profile" set, first; for tables and
// CSV, the profile as the first column. The runs print tables as a
// parent's to join (cli.ProfileRunEnv): cells as they are, each header
// marked; only a CSV printed here guards formula cells.
func (r *profilesRun) print(results []*profileResult) error {
	p := r.p
	if r.text {
		for i, res := range results {
			w := &prefixWriter{w: r.f.IO.Out, mu: &sync.Mutex{}, prefix: "[" + r.names[i] + "] "}
			w.Write(res.out.Bytes())
			w.flush()
		}
		return nil
	}
	if r.structured() {
		var all []json.RawMessage
		for i, res := range results {
			recs, err := withProfile(r.names[i], res.out.Bytes())
			if err != nil {
				return fmt.Errorf("profile %s: %w", r.names[i], err)
			}
			all = append(all, recs...)
		}
		if all == nil {
			all = []json.RawMessage{}
		}
		b, err := json.Marshal(all)
		if err != nil {
			return err
		}
		return p.Print(b, nil)
	}
	// Each profile's tables, joined by header: a command that prints two
	// tables prints two here too, each with every profile's rows.
	var tables []output.Table
	for i, res := range results {
		got, err := output.ReadTables(res.out.Bytes())
		if err != nil {
			return fmt.Errorf("profile %s: %w", r.names[i], err)
		}
		for _, t := range got {
			j := slices.IndexFunc(tables, func(u output.Table) bool { return slices.Equal(u.Header, t.Header) })
			if j < 0 {
				tables = append(tables, output.Table{Header: t.Header, Marks: t.Marks})
				j = len(tables) - 1
			}
			for _, row := range t.Rows {
				tables[j].Rows = append(tables[j].Rows, append([]string{r.names[i]}, row...))
			}
		}
	}
	for _, t := range tables {
		if err := r.printTable(t); err != nil {
			return err
		}
	}
	return nil
}

// printTable prints one joined table, its rows led by their profile, as
// the command prints its own in the format asked for.
func (r *profilesRun) printTable(t output.Table) error {
	// The profile's header is spelled as the command spells its own
	// (permissions report writes USER, users list email).
	name := "profile"
	if len(t.Header) > 0 && t.Header[0] == strings.ToUpper(t.Header[0]) {
		name = "PROFILE"
	}
	header := append([]string{name}, t.Header...)
	if r.format == "csv" {
		w := output.NewCSVWriter(r.f.IO.Out)
		w.Write(header)
		for _, row := range t.Rows {
			w.Write(row)
		}
		return w.Flush()
	}
	cols := make([]output.Column, len(header))
	for i, h := range header {
		cols[i] = output.Column{Header: strings.ToUpper(strings.ReplaceAll(h, "-", " ")), Field: fmt.Sprintf("c%d", i)}
		// the command's own marks: its key stays whole, as in its own
		// table, and its optional columns are the first to go
		if i > 0 && i-1 < len(t.Marks) {
			cols[i].Key, cols[i].Optional = t.Marks[i-1].Key, t.Marks[i-1].Optional
		}
	}
	objs := make([]map[string]string, len(t.Rows))
	for i, row := range t.Rows {
		o := map[string]string{}
		for j, v := range row {
			o[fmt.Sprintf("c%d", j)] = v
		}
		objs[i] = o
	}
	b, err := json.Marshal(objs)
	if err != nil {
		return err
	}
	return r.p.Print(b, cols)
}

// withProfile reads a stream of JSON values (a command may print more
// than one, as offboarding prints before and after) into records led by
// "profile": an array's objects each, an object itself, and any other
// value as {"profile": ..., "value": ...}. The profile is set, not added: a
// "profile" the record carries (in any spelling JSON allows for that key)
// gives way, so that no reader, whichever of two keys it keeps, credits
// the record to another Space.
func withProfile(name string, out []byte) ([]json.RawMessage, error) {
	prof, _ := json.Marshal(name)
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	var recs []json.RawMessage
	add := func(v json.RawMessage) error {
		t := bytes.TrimSpace(v)
		if len(t) == 0 || t[0] != '{' {
			recs = append(recs, json.RawMessage(`{"profile":`+string(prof)+`,"value":`+string(t)+`}`))
			return nil
		}
		rec, err := setProfile(prof, t)
		if err != nil {
			return err
		}
		recs = append(recs, rec)
		return nil
	}
	for {
		var v json.RawMessage
		if err := dec.Decode(&v); err == io.EOF {
			return recs, nil
		} else if err != nil {
			return nil, fmt.Errorf("unexpected output: %w", err)
		}
		var items []json.RawMessage
		if bytes.HasPrefix(bytes.TrimSpace(v), []byte("[")) && json.Unmarshal(v, &items) == nil {
			for _, it := range items {
				if err := add(it); err != nil {
					return nil, err
				}
			}
			continue
		}
		if err := add(v); err != nil {
			return nil, err
		}
	}
}

// setProfile is the object obj with "profile" (the JSON string prof)
// first and every member of obj's own named profile left out; the other
// members keep their order and their values' bytes.
func setProfile(prof []byte, obj []byte) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // {
		return nil, fmt.Errorf("unexpected output: %w", err)
	}
	var b bytes.Buffer
	b.WriteString(`{"profile":`)
	b.Write(prof)
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("unexpected output: %w", err)
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("unexpected output: %w", err)
		}
		if key == "profile" {
			continue
		}
		k, err := marshalKey(key)
		if err != nil {
			return nil, err
		}
		b.WriteByte(',')
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshalKey is key as a JSON string, with <, > and & as they are: a key
// is data, not HTML.
func marshalKey(key string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(key); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// stripFlags drops the named flags (long --name, --name=v, --name v;
// short -o v, -ov, and at the end of a cluster of shorthands, -qo v,
// -qov) from a command line; each takes a value. takesValue says which
// other shorthands take one: the rest of the cluster is its value.
func stripFlags(args []string, names map[string]bool, takesValue func(short string) bool) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if strings.HasPrefix(a, "--") {
			name, _, hasValue := strings.Cut(a[2:], "=")
			if names[name] {
				if !hasValue {
					i++
				}
				continue
			}
		} else if len(a) >= 2 && a[0] == '-' {
			for j := 1; j < len(a); j++ {
				short := a[j : j+1]
				if names[short] {
					if j == len(a)-1 {
						i++
					}
					a = a[:j] // the shorthands before it stay
					break
				}
				if takesValue(short) {
					break
				}
			}
			if a == "-" {
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// self is this program, to run once per profile. Under a test harness
// that runs the test binary by another name, the name it was run by.
func self() (string, error) {
	arg0 := os.Args[0]
	if strings.ContainsRune(arg0, filepath.Separator) {
		return arg0, nil
	}
	if p, err := exec.LookPath(arg0); err == nil {
		return p, nil
	}
	return os.Executable()
}

// parentPipeEnv tells a profile's run which of its files is its end of
// the parent's pipe (see asChild).
const parentPipeEnv = "ORGCTL_PARENT_PIPE"

// childEnv is the environment of a profile's run: the caller's, without
// what would make its output a terminal's or pick another profile. With
// terminal (the parent's stdout is one), the run is told that a person
// reads what it prints (cli.ReadByPerson).
func childEnv(terminal bool) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "ORGCTL_FORCE_TTY", "ORGCTL_PROFILE", "ORGCTL_OUTPUT", "ORGCTL_JQ", "ORGCTL_TEMPLATE", cli.ProfileRunEnv, parentPipeEnv:
			continue
		}
		env = append(env, kv)
	}
	if terminal {
		return append(env, cli.ProfileRunEnv+"="+cli.ProfileRunTerminal)
	}
	return append(env, cli.ProfileRunEnv+"=1")
}

// prefixWriter writes whole lines, each led by a prefix, so that the
// lines of runs at the same time do not mix.
type prefixWriter struct {
	w      io.Writer
	mu     *sync.Mutex
	prefix string
	buf    []byte
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.buf = append(p.buf, b...)
	for {
		i := bytes.IndexByte(p.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		p.line(p.buf[:i+1])
		p.buf = p.buf[i+1:]
	}
}

// line writes l, one line ending in a newline, led by the prefix; a
// carriage return before the newline is dropped.
func (p *prefixWriter) line(l []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	l = bytes.TrimSuffix(l[:len(l)-1], []byte("\r"))
	fmt.Fprintf(p.w, "%s%s\n", p.prefix, l)
}

func (p *prefixWriter) flush() {
	if len(p.buf) > 0 {
		p.line(append(p.buf, '\n'))
		p.buf = nil
	}
}
