// Package testwait waits, in tests, for what runs in a goroutine to
// return.
package testwait

import (
	"testing"
	"time"
)

// Returned waits up to d for the error that done delivers and fails t
// with it if it is not nil; if none comes within d, it fails t with
// stuck, the sentence that says what did not return.
func Returned(t testing.TB, done <-chan error, d time.Duration, stuck string) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(d):
		t.Fatal(stuck)
	}
}
