package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func TestWriteReplacesAndCleansUp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	if err := WriteFile(path, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "two" {
		t.Fatalf("content %q, want two", got)
	}
	// A failing fill leaves the old content and no temporary file.
	boom := errors.New("boom")
	err := Write(path, 0o644, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "two" {
		t.Fatalf("after failed write content %q, want two", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("folder holds %d entries, want only the file", len(entries))
	}
}

// TestIsTemp: the temporary file of a write in progress is recognised by
// IsTemp, and the files a program writes are not.
func TestIsTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	err := Write(path, 0o644, func(io.Writer) error {
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 || !IsTemp(entries[0].Name()) {
			t.Errorf("during the write the folder holds %v; want one temporary file", entries)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"state.json", "gen-000001.shard", "latest", ".hidden", "x.tmp"} {
		if IsTemp(name) {
			t.Errorf("IsTemp(%q) = true", name)
		}
	}
}

// TestCreateFile: a create-only write refuses an existing file, leaves it
// as it was and leaves no temporary file; of racing writers exactly one
// succeeds.
func TestCreateFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "epoch")
	if err := CreateFile(path, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CreateFile(path, []byte("two"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second create: %v, want fs.ErrExist", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "one" {
		t.Fatalf("content %q, want one", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("folder holds %v, want only the file", entries)
	}
	race := filepath.Join(dir, "race")
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = CreateFile(race, []byte{byte(i)}, 0o644) }()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		if err == nil {
			won++
		} else if !errors.Is(err, fs.ErrExist) {
			t.Fatal(err)
		}
	}
	if won != 1 {
		t.Fatalf("%d racing creates succeeded, want 1", won)
	}
}
