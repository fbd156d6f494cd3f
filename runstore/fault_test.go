package runstore

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"github.com/konanezero/konane/runfiles"
	"io/fs"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// faultyBackend is a file:// store whose writes of more than failAfter
// bytes fail, as on a full disk, before anything reaches the disk.
type faultyBackend struct {
	fileBackend
	failAfter int
}

func (b *faultyBackend) write(ctx context.Context, key string, data []byte, createOnly bool) error {
	if len(data) > b.failAfter {
		return &fs.PathError{Op: "write", Path: key, Err: syscall.ENOSPC}
	}
	return b.fileBackend.write(ctx, key, data, createOnly)
}

// openFaultyFile returns a store on a faulty backend over the directory
// dir.
func openFaultyFile(t *testing.T, dir string, failAfter int) *Store {
	s := &Store{b: &faultyBackend{fileBackend{dir}, failAfter}, loc: "faulty:" + dir, Backoff: Backoff{Attempts: 2, First: time.Millisecond, Max: time.Millisecond}}
	t.Cleanup(func() { s.Close() })
	return s
}

// checkFullDisk writes big objects to s, whose storage fails every write
// beyond some tens of KiB (a full disk), and checks that no failed write
// leaves a broken object: a create-only write leaves nothing under its
// key, a replacing write leaves the old content, and no temporary file
// remains in dir (when the store is a directory).
func checkFullDisk(t *testing.T, s *Store, dir string) {
	ctx := context.Background()
	if err := s.Put(ctx, "state.json", []byte(`{"generation":1}`)); err != nil {
		t.Fatalf("a small put: %v", err)
	}
	big := make([]byte, 200<<10)
	rand.Read(big)
	key := "replay/gen-000001/" + SHA256(big) + ".shard"
	if err := s.Create(ctx, key, big); err == nil {
		t.Fatal("a create of 200 KiB on a full disk succeeded")
	}
	if b, err := s.Read(ctx, key); !errors.Is(err, ErrNotExist) {
		t.Fatalf("after a failed create the key holds %d bytes (%v); want nothing", len(b), err)
	}
	if _, err := s.CreateVerified(ctx, key, big); err == nil {
		t.Fatal("a verified create of 200 KiB on a full disk succeeded")
	}
	if b, err := s.Read(ctx, key); !errors.Is(err, ErrNotExist) {
		t.Fatalf("after a failed verified create the key holds %d bytes (%v); want nothing", len(b), err)
	}
	if err := s.Put(ctx, "state.json", big); err == nil {
		t.Fatal("a put of 200 KiB on a full disk succeeded")
	}
	if b, err := s.Read(ctx, "state.json"); err != nil || string(b) != `{"generation":1}` {
		t.Fatalf("after a failed put state.json holds %d bytes (%v); want the old content", len(b), err)
	}
	if dir == "" {
		return
	}
	filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && runfiles.IsTemp(filepath.ToSlash(path)) {
			t.Errorf("a failed write left %s", path)
		}
		return nil
	})
}

// TestCreateRaceDifferent: of writers racing to create one key with
// different content, exactly one succeeds and its content is what a
// reader gets (on file:// the check and the write were two steps).
func TestCreateRaceDifferent(t *testing.T) {
	forEachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		for round := range 20 {
			key := fmt.Sprintf("lease/epoch-%010d.json", round)
			var wg sync.WaitGroup
			errs := make([]error, 8)
			for i := range errs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[i] = s.Create(ctx, key, bytes.Repeat([]byte{byte('a' + i)}, 4096))
				}()
			}
			wg.Wait()
			winner := -1
			for i, err := range errs {
				switch {
				case err == nil && winner >= 0:
					t.Fatalf("round %d: writers %d and %d both created %s", round, winner, i, key)
				case err == nil:
					winner = i
				case !errors.Is(err, ErrExist):
					t.Fatalf("racing create: %v", err)
				}
			}
			if winner < 0 {
				t.Fatal("no racing create succeeded")
			}
			b, err := s.Read(ctx, key)
			if err != nil || !bytes.Equal(b, bytes.Repeat([]byte{byte('a' + winner)}, 4096)) {
				t.Fatalf("round %d: %s holds %.8q… (%v), want the winner's content", round, key, b, err)
			}
		}
	})
}

// TestCreateVerified: an upload counts only when the object under its
// content-addressed key holds its content; a broken one is replaced and
// reported.
func TestCreateVerified(t *testing.T) {
	forEachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		data := bytes.Repeat([]byte("game"), 3000)
		key := "replay/gen-000002/" + SHA256(data) + ".shard"
		if replaced, err := s.CreateVerified(ctx, key, data); err != nil || replaced {
			t.Fatalf("first upload: replaced %v, %v", replaced, err)
		}
		if replaced, err := s.CreateVerified(ctx, key, data); err != nil || replaced {
			t.Fatalf("second upload: replaced %v, %v; want success, nothing replaced", replaced, err)
		}
		for _, broken := range [][]byte{nil, data[:4096], append(bytes.Clone(data[:100]), 'x')} {
			if err := s.Put(ctx, key, broken); err != nil {
				t.Fatal(err)
			}
			if replaced, err := s.CreateVerified(ctx, key, data); err != nil || !replaced {
				t.Fatalf("upload over a broken object of %d bytes: replaced %v, %v; want replaced", len(broken), replaced, err)
			}
			if _, err := s.ReadVerified(ctx, key, SHA256(data)); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestReport: a store that keeps failing reports its first failure at
// once, not every retry, and its recovery.
func TestReport(t *testing.T) {
	s := openFaultyFile(t, t.TempDir(), 10)
	s.Backoff = Backoff{Attempts: 4, First: time.Millisecond, Max: time.Millisecond}
	var got []Retrying
	s.Report = func(r Retrying) { got = append(got, r) }
	ctx := context.Background()
	for range 3 {
		if err := s.Put(ctx, "state.json", make([]byte, 100)); err == nil {
			t.Fatal("put succeeded")
		}
	}
	if len(got) != 1 || got[0].Err == nil || got[0].Op != "put" || got[0].Key != "state.json" || got[0].Attempt != 1 {
		t.Fatalf("reports %+v; want the first failure only", got)
	}
	if err := s.Put(ctx, "state.json", make([]byte, 5)); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].Err != nil || got[1].Failing <= 0 || got[1].Reports != 1 {
		t.Fatalf("reports %+v; want the recovery last", got)
	}
	if err := s.Put(ctx, "state.json", make([]byte, 5)); err != nil || len(got) != 2 {
		t.Fatalf("a success after the recovery reported again: %+v, %v", got, err)
	}
}
