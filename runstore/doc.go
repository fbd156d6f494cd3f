// Package runstore is the storage of a training run shared by machines:
// one trainer and any number of self-play workers, on a local or network
// file system or in a bucket of object storage (S3 and compatible: MinIO,
// R2, SeaweedFS, GCS through its S3 interface).
//
// Like gocloud.dev/blob, on which it is built, it is one portable type
// (Store) opened from a location (Open: a path, file://…, s3://…; gs://
// and azblob:// in a build with -tags gcs or -tags azure, see linked in
// store.go for why not by default), with
// one conformance suite (runstore_test.go) that every backend passes: it
// runs against file:// always and against a real S3 server in CI
// (.ci/run starts SeaweedFS and sets KONANE_TEST_S3).
//
// What it offers, one file each:
//
//   - store.go: create-only writes (Create: never replaces an object, so
//     a retried upload under a content-addressed key is harmless;
//     CreateVerified also checks and repairs what is already there),
//     replacing writes (Put), reads, sorted listings that skip the
//     temporary files of interrupted writes, and typed errors (OpError,
//     ErrExist, ErrNotExist).
//   - driver_file.go: the writes of a file:// store, through
//     internal/atomicfile: synced, renamed or hard-linked into place, so a
//     failed write (a full disk) never leaves a broken object.
//   - backoff.go: retries of transient errors with jittered exponential
//     backoff (Backoff), including AWS's 409 on racing conditional writes,
//     and their report (Store.Report).
//   - latest.go: the pointer to the newest model, models/latest.json
//     (Latest), with the model's sha256 checked on download.
//   - lease.go: the single-trainer lease (Lease) from create-only epoch
//     objects and heartbeats, with fencing; an flock on file://.
//   - spool.go: a worker's local spool (Spool), locked, written atomically.
//
// Usage:
//
//	s, err := runstore.Open(ctx, "s3://bucket/runs/8x8?endpoint=http://127.0.0.1:8333&use_path_style=true&region=us-east-1")
//	...
//	err = s.Create(ctx, "replay/gen-000003/"+runstore.SHA256(data)+".shard", data)
//	if errors.Is(err, runstore.ErrExist) { /* uploaded before: done */ }
//
// Credentials of S3 come from the usual AWS environment
// (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION) or files.
package runstore
