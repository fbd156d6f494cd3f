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

	"gocloud.dev/blob"
	"gocloud.dev/blob/driver"
	"gocloud.dev/blob/fileblob"
	"gocloud.dev/gcerrors"
)

// faultyBucket is a blob driver over a real bucket (fileblob) whose
// writers fail midway, as on a full disk: Write passes the first
// failAfter bytes on and then returns ENOSPC.
type faultyBucket struct {
	inner     *blob.Bucket
	failAfter int
	mu        sync.Mutex
	writes    int // writers opened
}

func (b *faultyBucket) ErrorCode(err error) gcerrors.ErrorCode { return gcerrors.Code(err) }
func (b *faultyBucket) As(any) bool                            { return false }
func (b *faultyBucket) ErrorAs(error, any) bool                { return false }
func (b *faultyBucket) Close() error                           { return b.inner.Close() }

func (b *faultyBucket) Attributes(ctx context.Context, key string) (*driver.Attributes, error) {
	a, err := b.inner.Attributes(ctx, key)
	if err != nil {
		return nil, err
	}
	return &driver.Attributes{Size: a.Size, ModTime: a.ModTime, ContentType: a.ContentType}, nil
}

func (b *faultyBucket) ListPaged(ctx context.Context, opts *driver.ListOptions) (*driver.ListPage, error) {
	objs, next, err := b.inner.ListPage(ctx, opts.PageToken, max(opts.PageSize, 1000), &blob.ListOptions{Prefix: opts.Prefix, Delimiter: opts.Delimiter})
	if err != nil {
		return nil, err
	}
	page := &driver.ListPage{NextPageToken: next}
	for _, o := range objs {
		page.Objects = append(page.Objects, &driver.ListObject{Key: o.Key, ModTime: o.ModTime, Size: o.Size, IsDir: o.IsDir})
	}
	return page, nil
}

type faultyReader struct {
	*blob.Reader
}

func (r faultyReader) Attributes() *driver.ReaderAttributes {
	return &driver.ReaderAttributes{ContentType: r.ContentType(), ModTime: r.ModTime(), Size: r.Size()}
}
func (r faultyReader) As(any) bool { return false }

func (b *faultyBucket) NewRangeReader(ctx context.Context, key string, offset, length int64, _ *driver.ReaderOptions) (driver.Reader, error) {
	r, err := b.inner.NewRangeReader(ctx, key, offset, length, nil)
	if err != nil {
		return nil, err
	}
	return faultyReader{r}, nil
}

type faultyWriter struct {
	w    *blob.Writer
	left int
}

func (w *faultyWriter) Write(p []byte) (int, error) {
	n := min(len(p), w.left)
	n, err := w.w.Write(p[:n])
	w.left -= n
	if err == nil && n < len(p) {
		err = &fs.PathError{Op: "write", Path: "faulty", Err: syscall.ENOSPC}
	}
	return n, err
}

func (w *faultyWriter) Close() error { return w.w.Close() }

func (b *faultyBucket) NewTypedWriter(ctx context.Context, key, contentType string, opts *driver.WriterOptions) (driver.Writer, error) {
	b.mu.Lock()
	b.writes++
	b.mu.Unlock()
	w, err := b.inner.NewWriter(ctx, key, &blob.WriterOptions{ContentType: contentType, IfNotExist: opts.IfNotExist})
	if err != nil {
		return nil, err
	}
	return &faultyWriter{w: w, left: b.failAfter}, nil
}

func (b *faultyBucket) Copy(ctx context.Context, dst, src string, _ *driver.CopyOptions) error {
	return b.inner.Copy(ctx, dst, src, nil)
}

func (b *faultyBucket) Delete(ctx context.Context, key string, _ *driver.DeleteOptions) error {
	return b.inner.Delete(ctx, key)
}

func (b *faultyBucket) SignedURL(context.Context, string, *driver.SignedURLOptions) (string, error) {
	return "", errors.ErrUnsupported
}

// openFaulty returns a store on a faulty driver over the directory dir.
func openFaulty(t *testing.T, dir string, failAfter int) (*Store, *faultyBucket) {
	t.Helper()
	inner, err := fileblob.OpenBucket(dir, &fileblob.Options{NoTempDir: true, Metadata: fileblob.MetadataDontWrite})
	if err != nil {
		t.Fatal(err)
	}
	fb := &faultyBucket{inner: inner, failAfter: failAfter}
	s := &Store{bucket: blob.NewBucket(fb), loc: "faulty:" + dir, Backoff: Backoff{Attempts: 2, First: time.Millisecond, Max: time.Millisecond}}
	t.Cleanup(func() { s.Close() })
	return s, fb
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

// TestFailedWriteLeavesNoObject: on a driver whose writes fail midway, a
// failed Create or Put leaves no truncated object under the final name
// (blob.WriteAll closed the writer after a failed Write, and fileblob
// renamed the truncated file into place).
func TestFailedWriteLeavesNoObject(t *testing.T) {
	dir := t.TempDir()
	s, fb := openFaulty(t, dir, 64<<10)
	checkFullDisk(t, s, dir)
	if fb.writes == 0 {
		t.Fatal("the faulty driver was not used")
	}
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
	s, _ := openFaulty(t, t.TempDir(), 10)
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
