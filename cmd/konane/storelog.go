package main

import (
	"time"

	"github.com/konanezero/konane/runstore"
)

// logStoreRetries makes store log, through logf, the transient failures
// it retries: the first, then one a minute while they go on, and the
// first success after them (runstore.Store.Report).
func logStoreRetries(store *runstore.Store, logf func(string, ...any)) {
	store.Report = func(r runstore.Retrying) {
		switch {
		case r.Err == nil:
			logf("the run's store works again (after %v of failures)", r.Failing.Round(time.Second))
		case r.Reports == 0:
			logf("warning: the run's store failed (%s %s), retrying: %v", r.Op, r.Key, r.Err)
		default:
			logf("warning: the run's store still fails after %v (%s %s), retrying: %v", r.Failing.Round(time.Second), r.Op, r.Key, r.Err)
		}
	}
}
