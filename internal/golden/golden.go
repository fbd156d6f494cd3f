// Package golden compares a test's output with a golden file of its
// package's testdata, or rewrites the file, as go/doc's tests do with
// -update, the flag this package declares for every test binary that
// imports it (a package's other generated files may follow it too):
//
//	func TestReport(t *testing.T) {
//		golden.Check(t, "report.golden", report())
//	}
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/konanezero/konane/internal/atomicfile"
)

// Update is the -update flag: rewrite the golden files.
var Update = flag.Bool("update", false, "rewrite the golden files in testdata with the current output")

// Check compares got with testdata/name; with -update it writes got there
// instead (creating testdata). A difference fails t with the output and
// how to rewrite the file.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	check(t, name, got, *Update)
}

func check(t testing.TB, name string, got []byte, update bool) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := atomicfile.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test -run %s -update rewrites it)\ngot:\n%s\nwant:\n%s", path, t.Name(), got, want)
	}
}
