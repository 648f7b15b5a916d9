// Package bulk owns bulk jobs: one command applied to every row of a file.
//
// It reads the rows (CSV with a header row, or JSON Lines) as a stream,
// each with its line number, so a file of any length is never held whole;
// it runs them with a fixed number of workers that all send through the
// one paced orgctl client, so the budget ledger, not the job, decides when
// each request goes; and it keeps a journal per job: an append-only file
// recording each row's fate as it becomes known ("sent" before a request
// leaves, then its outcome), from which a later run of the same job learns
// which rows to skip, which to run, and which to settle by a lookup first.
//
// A command brings its rows, phase by phase (Source), and what a row means
// (Handler: which request it becomes, how its natural key is looked up) to
// a Job, and drives the run itself: Open takes the job's lock and reads
// what earlier runs left, so the command can confirm or announce a resume;
// Session.Results runs the rows and yields each one's result; End says how
// it ended. The package calls into the command only through the Handler,
// because the order of rows, the workers, the journal and stopping are its
// own and the "sent" record must be written just before a change leaves,
// which only the sender knows. The package knows rows, outcomes,
// workers, journals and job directories; it knows no flags and no formats
// of output. It must not import cobra, cmd or output.
package bulk
