// Package runstore is the storage of a training run shared by machines:
// one trainer and any number of self-play workers, on a local or network
// file system or in a bucket of object storage. It is one portable type
// (Store) opened from a location (Open: a path or file://… in every
// build; s3://… with -tags s3, gs:// with -tags gcs, azblob:// with
// -tags azure, through gocloud.dev/blob; a build without the driver
// refuses the location in one line naming the tag), with one conformance
// suite (runstore_test.go) that every backend passes: against file://
// always, against a real S3 server in CI (.ci/run starts SeaweedFS, sets
// KONANE_TEST_S3 and builds with -tags s3).
//
// Its contract: Create never replaces an object (a retried upload under a
// content-addressed key is harmless; CreateVerified also checks and
// repairs what is there); Put replaces atomically; a write that fails
// (a full disk, a lost connection) leaves the old object or none, never a
// truncated one (file:// writes go through internal/atomicfile); listings
// are sorted and skip temporary files (runfiles.IsTemp); transient errors
// are retried with jittered backoff (Backoff) and reported
// (Store.Report); errors are *OpError wrapping ErrExist or ErrNotExist
// for the two expected failures. Beside it: the model pointer
// (ReadLatest, WriteLatest), the single-trainer lease (Lease), a worker's
// local spool (Spool).
//
// Credentials of S3 come from the usual AWS environment
// (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION) or files.
package runstore
