package runstore

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"gocloud.dev/gcerrors"
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
// existing key, a refused permission or a bad argument, but a failed
// connection, a server error, throttling, or AWS's 409 answer to racing
// conditional writes (which gocloud reports as Unknown).
func Transient(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	switch gcerrors.Code(err) {
	case gcerrors.NotFound, gcerrors.FailedPrecondition, gcerrors.PermissionDenied,
		gcerrors.InvalidArgument, gcerrors.Unimplemented, gcerrors.AlreadyExists, gcerrors.Canceled:
		return false
	}
	return true
}

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

// retry runs f until it succeeds, fails for good, or the policy runs out.
func (s *Store) retry(ctx context.Context, f func() error) error {
	for attempt := 1; ; attempt++ {
		err := f()
		if err == nil || !Transient(err) || attempt >= s.Backoff.Attempts || ctx.Err() != nil {
			return err
		}
		if Sleep(ctx, s.Backoff.Wait(attempt)) != nil {
			return err
		}
	}
}
