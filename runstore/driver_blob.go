//go:build s3 || gcs || azure

package runstore

import (
	"context"
	"crypto/md5"
	"io"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// blobBackend is a bucket of object storage through gocloud.dev/blob, in
// a build with a bucket driver (driver_s3.go, driver_gcs.go,
// driver_azure.go). Its errors are those of the driver, with a missing key
// as ErrNotExist, a create-only write of an existing key as ErrExist,
// and the answers that a retry cannot change as permanent (see
// Transient).
type blobBackend struct {
	bucket *blob.Bucket
}

// openBucket opens the bucket at url, a gocloud.dev/blob URL.
func openBucket(ctx context.Context, url string) (backend, error) {
	b, err := blob.OpenBucket(ctx, url)
	if err != nil {
		return nil, err
	}
	return &blobBackend{bucket: b}, nil
}

// write writes key through the bucket's driver. A Write that fails
// cancels the writer's context before Close, which makes every driver
// abort the upload instead of committing what it got (blob.WriteAll does
// not: gocloud's fileblob then renames a truncated file into place).
func (b *blobBackend) write(ctx context.Context, key string, data []byte, createOnly bool) error {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sum := md5.Sum(data)
	w, err := b.bucket.NewWriter(wctx, key, &blob.WriterOptions{
		IfNotExist:  createOnly,
		ContentType: "application/octet-stream",
		ContentMD5:  sum[:],
	})
	if err != nil {
		return blobError(err)
	}
	if _, err := w.Write(data); err != nil {
		cancel()
		w.Close()
		return blobError(err)
	}
	return blobError(w.Close())
}

func (b *blobBackend) read(ctx context.Context, key string) ([]byte, error) {
	data, err := b.bucket.ReadAll(ctx, key)
	return data, blobError(err)
}

func (b *blobBackend) list(ctx context.Context, prefix string, out []Object) ([]Object, error) {
	it := b.bucket.List(&blob.ListOptions{Prefix: prefix})
	for {
		o, err := it.Next(ctx)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, blobError(err)
		}
		if !o.IsDir {
			out = append(out, Object{Key: o.Key, Size: o.Size, ModTime: o.ModTime})
		}
	}
}

func (b *blobBackend) delete(ctx context.Context, key string) error {
	err := blobError(b.bucket.Delete(ctx, key))
	if err == ErrNotExist {
		return nil
	}
	return err
}

func (b *blobBackend) close() error { return b.bucket.Close() }

// blobError is err in the store's terms: ErrNotExist, ErrExist, a
// permanent error, or err itself (transient: a failed connection, a
// server error, throttling, or AWS's 409 answer to racing conditional
// writes, which gocloud reports as Unknown).
func blobError(err error) error {
	switch gcerrors.Code(err) {
	case gcerrors.OK:
		return err
	case gcerrors.NotFound:
		return ErrNotExist
	case gcerrors.FailedPrecondition, gcerrors.AlreadyExists:
		return ErrExist
	case gcerrors.PermissionDenied, gcerrors.InvalidArgument, gcerrors.Unimplemented, gcerrors.Canceled:
		return &permanentError{err}
	}
	return err
}
