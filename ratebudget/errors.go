package ratebudget

import (
	"errors"
	"fmt"
	"time"
)

// WaitError is returned by Acquire when the request cannot be sent within
// Config.MaxWait or the context ends first.
type WaitError struct {
	Needed, Used, Limit int
	Waited              time.Duration
	RetryAt             time.Time
	Blocked             bool          // the server's block, not the window, is what stands in the way
	Window              time.Duration // the sliding window Used is counted over
	MaxWait             time.Duration
	Note                string // see Wait.Note
	Err                 error  // the context's error when it ended the wait, else nil
}

func (e *WaitError) Error() string {
	var what string
	if e.Blocked {
		what = "the server is blocking this token"
	} else {
		what = fmt.Sprintf("%d of %d points used in the last %s; this request needs %d",
			e.Used, e.Limit, e.Window, e.Needed)
		if e.Note != "" {
			what = e.Note + "; this request needs " + fmt.Sprint(e.Needed)
		}
	}
	var why string
	switch {
	case e.Err != nil:
		why = fmt.Sprintf("stopped after waiting %s (%v)", e.Waited.Round(time.Millisecond), e.Err)
	case e.Waited >= e.MaxWait:
		why = fmt.Sprintf("gave up after waiting %s", e.Waited.Round(time.Millisecond))
	default:
		why = fmt.Sprintf("waiting would exceed the %s limit", e.MaxWait)
	}
	return fmt.Sprintf("rate budget: %s; %s; retry after %s", what, why, e.RetryAt.Format("15:04:05"))
}

func (e *WaitError) Unwrap() error { return e.Err }

// ErrTooCostly is wrapped by Acquire's error for a request that costs more
// than the whole usable budget and so could never be sent.
var ErrTooCostly = errors.New("rate budget: request costs more than the whole budget")
