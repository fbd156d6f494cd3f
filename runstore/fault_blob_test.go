//go:build s3 || gcs || azure

package runstore

import (
	"context"
	"errors"
	"io/fs"
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
	s := &Store{b: &blobBackend{blob.NewBucket(fb)}, loc: "faulty:" + dir, Backoff: Backoff{Attempts: 2, First: time.Millisecond, Max: time.Millisecond}}
	t.Cleanup(func() { s.Close() })
	return s, fb
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
