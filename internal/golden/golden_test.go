package golden

import (
	"os"
	"testing"
)

// recorder is a testing.TB that records failures instead of stopping.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
func (r *recorder) Fatal(...any)          { r.failed = true }
func (r *recorder) Helper()               {}

func TestCheck(t *testing.T) {
	t.Chdir(t.TempDir())
	check := func(got string, update bool) bool {
		r := &recorder{TB: t}
		check(r, "x.golden", []byte(got), update)
		return !r.failed
	}
	if check("a\n", false) {
		t.Error("a missing golden file passed")
	}
	if !check("a\n", true) {
		t.Error("-update failed")
	}
	if b, err := os.ReadFile("testdata/x.golden"); err != nil || string(b) != "a\n" {
		t.Errorf("written %q, %v", b, err)
	}
	if !check("a\n", false) {
		t.Error("the same output failed")
	}
	if check("b\n", false) {
		t.Error("another output passed")
	}
}
