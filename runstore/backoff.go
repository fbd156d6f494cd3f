package runstore

import (
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"sync"
	"syscall"
	"time"
)

// Backoff is a retry policy: up to Attempts tries, waiting First, then
// twice as long each time up to Max, each wait jittered by ±25%.
type Backoff struct {
	Attempts   int
	First, Max time.Duration
}

// DefaultBackoff retries for about a minute in all.
var DefaultBackoff = Backoff{Attempts: 10, First: 200 * time.Millisecond, Max: 15 * time.Second}

// Transient reports whether err is worth retrying: not a missing key, an
// existing key, a refused permission, a bad argument, a cancelled context
// or a file system error that a retry cannot change (a directory or file
// where the key needs the other, a name too long, a read-only file
// system), but a failed connection, a server error, throttling, a full
// disk, or AWS's 409 answer to racing conditional writes.
func Transient(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, ErrExist) ||
		errors.Is(err, ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrExist) {
		return false
	}
	for _, errno := range permanentErrnos {
		if errors.Is(err, errno) {
			return false
		}
	}
	var p *permanentError
	return !errors.As(err, &p)
}

// permanentErrnos are the file system errors that Transient does not
// retry (besides those of fs.ErrExist and fs.ErrPermission).
var permanentErrnos = []error{syscall.EISDIR, syscall.ENOTDIR, syscall.ENAMETOOLONG, syscall.EROFS, syscall.ELOOP, syscall.EINVAL}

// permanentError is a backend's answer that a retry cannot change (a
// bucket's refused permission or bad argument).
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// Wait returns how long to wait before try number attempt+1 (attempt ≥ 1).
func (b Backoff) Wait(attempt int) time.Duration {
	d := b.First
	for i := 1; i < attempt && d < b.Max; i++ {
		d *= 2
	}
	d = min(d, b.Max)
	return time.Duration(float64(d) * (0.75 + 0.5*rand.Float64()))
}

// Sleep waits d or until ctx is done, whichever comes first.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retry runs f, operation op on key, until it succeeds, fails for good,
// or the policy runs out; it tells Report of transient failures.
func (s *Store) retry(ctx context.Context, op, key string, f func() error) error {
	for attempt := 1; ; attempt++ {
		err := f()
		if err == nil || errors.Is(err, ErrNotExist) || errors.Is(err, ErrExist) {
			// An answer: the store works.
			s.health.ok(s.Report, op, key)
			return err
		}
		if !Transient(err) {
			return err
		}
		s.health.failed(s.Report, Retrying{Op: op, Key: key, Err: err, Attempt: attempt})
		if attempt >= s.Backoff.Attempts || ctx.Err() != nil {
			return err
		}
		if Sleep(ctx, s.Backoff.Wait(attempt)) != nil {
			return err
		}
	}
}

// Retrying is what Store.Report is told: a transient failure of an
// operation, or (Err nil) the first success after failures.
type Retrying struct {
	Op      string // "create", "put", "read", "list", "delete"
	Key     string
	Err     error         // the failure; nil: the store works again
	Attempt int           // of this operation (1: its first try failed)
	Failing time.Duration // since the first failure of this spell (0 at the first)
	Reports int           // how many failures of this spell were reported before this one
}

// ReportEvery is how often at most Store.Report is told of failures while
// they go on.
const ReportEvery = time.Minute

// health tracks a store's spell of transient failures for Report.
type health struct {
	mu         sync.Mutex
	since      time.Time // first failure of the current spell; zero: none
	lastReport time.Time
	reports    int
}

func (h *health) failed(report func(Retrying), r Retrying) {
	now := time.Now()
	h.mu.Lock()
	if h.since.IsZero() {
		h.since, h.reports = now, 0
	}
	due := h.reports == 0 || now.Sub(h.lastReport) >= ReportEvery
	r.Failing, r.Reports = now.Sub(h.since), h.reports
	if due {
		h.lastReport = now
		h.reports++
	}
	h.mu.Unlock()
	if due && report != nil {
		report(r)
	}
}

func (h *health) ok(report func(Retrying), op, key string) {
	h.mu.Lock()
	if h.since.IsZero() {
		h.mu.Unlock()
		return
	}
	r := Retrying{Op: op, Key: key, Failing: time.Since(h.since), Reports: h.reports}
	h.since = time.Time{}
	h.mu.Unlock()
	if report != nil {
		report(r)
	}
}
