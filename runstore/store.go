package runstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/konanezero/konane/runfiles"
)

// ErrExist is wrapped by the error of a create-only write whose key exists.
var ErrExist = errors.New("already exists")

// ErrNotExist is wrapped by the error of a read of a missing key.
var ErrNotExist = errors.New("does not exist")

// OpError is the error of one operation on a store: what was done, to which
// key of which store, and why. errors.Is(err, ErrExist) and
// errors.Is(err, ErrNotExist) tell the two expected failures.
type OpError struct {
	Op    string // "create", "put", "read", "list", "delete"
	Store string // the store's location, as opened
	Key   string
	Err   error
}

func (e *OpError) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("runstore: %s %s: %v", e.Op, e.Store, e.Err)
	}
	return fmt.Sprintf("runstore: %s %s in %s: %v", e.Op, e.Key, e.Store, e.Err)
}

func (e *OpError) Unwrap() error { return e.Err }

// A Store is the storage of one run: a local directory or a bucket (with an
// optional prefix), addressed by slash-separated keys. It is safe for
// concurrent use.
type Store struct {
	b   backend
	loc string // as given to Open
	dir string // the directory of a file:// store, "" otherwise

	// Backoff is the retry policy of transient errors (network failures,
	// server errors, a conflicting conditional write). Open sets
	// DefaultBackoff.
	Backoff Backoff

	// Report, if set, is told of the transient failures that the store
	// retries (see Retrying): the first one after a success, then at most
	// one every ReportEvery while they go on, and the first success after
	// them; so that a process waiting on a full disk or an unreachable
	// server says so. It is called from the goroutine of the operation
	// and must not block.
	Report func(Retrying)

	health health // for Report
}

// backend is where a Store's objects are: a local directory (fileBackend,
// driver_file.go, in every build) or a bucket (driver_blob.go, in a build
// with the tag of its driver). Keys are checked by the Store; retries,
// sorting and the skipping of temporary files are the Store's too.
type backend interface {
	// write stores data under key; createOnly refuses, with an error
	// wrapping ErrExist, a key that exists. A write that fails leaves no
	// object, or the old one.
	write(ctx context.Context, key string, data []byte, createOnly bool) error
	// read returns key's content, or an error wrapping ErrNotExist.
	read(ctx context.Context, key string) ([]byte, error)
	// list appends the objects whose keys start with prefix to out, in
	// any order; an error wrapping ErrNotExist means that an object
	// vanished while it listed (List starts over).
	list(ctx context.Context, prefix string, out []Object) ([]Object, error)
	// delete removes key; a missing key is not an error.
	delete(ctx context.Context, key string) error
	close() error
}

// Open opens the store at location: a path or file:// URL (a local or
// network file system such as NFS), or, in a build with a bucket driver
// (see linked), a bucket URL that gocloud.dev/blob understands, such as
//
//	s3://bucket/prefix?endpoint=http://127.0.0.1:8333&use_path_style=true&region=us-east-1
//
// A path in a bucket URL becomes the key prefix of the run. Local
// directories are created if missing; temporary files are kept next to
// their destination, so that a directory on another mount (NFS) works. A
// scheme whose driver is not in the build is refused with an error that
// names the build tag to use.
func Open(ctx context.Context, location string) (*Store, error) {
	if location == "" {
		return nil, errors.New("runstore: empty run location")
	}
	s := &Store{loc: location, Backoff: DefaultBackoff}
	u, err := url.Parse(location)
	if err != nil || !strings.Contains(location, "://") {
		u = &url.URL{Scheme: "file", Path: location}
	}
	q := u.Query()
	if err := checkScheme(u.Scheme); err != nil {
		return nil, fmt.Errorf("runstore: %s: %w", location, err)
	}
	switch u.Scheme {
	case "file":
		dir := u.Path
		if u.Host != "" && u.Host != "localhost" {
			return nil, fmt.Errorf("runstore: %s: a file URL names a local path (file:///abs/path), not host %q", location, u.Host)
		}
		if !filepath.IsAbs(dir) {
			if dir, err = filepath.Abs(dir); err != nil {
				return nil, fmt.Errorf("runstore: %s: %w", location, err)
			}
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("runstore: %w", err)
		}
		s.dir = dir
		s.b = &fileBackend{dir: dir}
		return s, nil
	}
	if p := strings.Trim(u.Path, "/"); p != "" {
		q.Set("prefix", p+"/")
		u.Path = ""
	}
	u.RawQuery = q.Encode()
	b, err := openBucket(ctx, u.String())
	if err != nil {
		return nil, fmt.Errorf("runstore: opening %s: %w", location, err)
	}
	s.b = b
	return s, nil
}

// linked are the schemes of the storage drivers in this build: file
// always, and each bucket driver with its build tag: s3 (S3 and
// compatible servers: AWS, MinIO, R2, SeaweedFS, GCS through its S3
// interface) with -tags s3, gs (Google Cloud Storage) with -tags gcs,
// azblob (Azure Blob Storage) with -tags azure. The bucket drivers are
// not in the default build, which is the one a player downloads: they
// come with gocloud.dev/blob and, through it, the cloud SDKs, gRPC and
// OpenTelemetry. The container image (deploy/Dockerfile) is built with
// -tags s3.
var linked = map[string]bool{"file": true}

// DriverError is the error for a location whose bucket driver is not in
// this build: Tag is the build tag that has it (s3, gcs, azure).
type DriverError struct {
	Scheme, Tag string
	// what names the storage, and more its other ways in (may be "").
	what, more string
}

func (e *DriverError) Error() string {
	return fmt.Sprintf("%s:// (%s) is not in this build: build konane with -tags %s%s", e.Scheme, e.what, e.Tag, e.more)
}

// checkScheme refuses a location whose storage is not in this build, in
// one line that says which build has it (a *DriverError).
func checkScheme(scheme string) error {
	if linked[scheme] {
		return nil
	}
	switch scheme {
	case "s3":
		return &DriverError{Scheme: scheme, Tag: "s3", what: "S3 and compatible servers", more: " (as the container image is), or use a path or file:// URL"}
	case "gs":
		return &DriverError{Scheme: scheme, Tag: "gcs", what: "Google Cloud Storage", more: ", or with -tags s3 and use the bucket through GCS's S3 interface: s3://BUCKET/PREFIX?endpoint=https://storage.googleapis.com with HMAC keys"}
	case "azblob":
		return &DriverError{Scheme: scheme, Tag: "azure", what: "Azure Blob Storage"}
	}
	return fmt.Errorf("unknown storage scheme %q: want a path, file:///path, or s3://bucket/prefix?endpoint=... (with -tags s3; gs:// with -tags gcs, azblob:// with -tags azure)", scheme)
}

// Location returns the location the store was opened with.
func (s *Store) Location() string { return s.loc }

// Dir returns the local directory of a file:// store, or "" for a bucket.
func (s *Store) Dir() string { return s.dir }

// Name is how a person finds key: its file's path on file:// (relative
// when the store was opened with a relative path), else the store's
// location and the key.
func (s *Store) Name(key string) string {
	switch {
	case s.dir == "":
		return s.loc + " " + key
	case strings.Contains(s.loc, "://"):
		return s.b.(*fileBackend).path(key)
	}
	return filepath.Join(s.loc, filepath.FromSlash(key))
}

// Close releases the store's resources.
func (s *Store) Close() error { return s.b.close() }

// Create writes data under key only if key does not exist yet; otherwise
// it returns an error wrapping ErrExist and leaves the object as it was.
// The check is atomic on every backend (on file:// a hard link, see
// driver_file.go): of two writers racing on one key exactly one succeeds.
// A write that fails (a full disk, a lost connection) leaves no object
// under key. An object that exists may still be damaged (left by an older
// version, or by hand): for content-addressed keys use CreateVerified.
func (s *Store) Create(ctx context.Context, key string, data []byte) error {
	return s.write(ctx, "create", key, data, true)
}

// CreateVerified is Create for a content-addressed key (a key that names
// its data, such as its sha256): when key exists, the object there counts
// only if it holds exactly data; if it holds anything else, it is
// replaced by data and replaced is true, so that the caller can report
// it. Once CreateVerified returns nil, key holds data: the caller may
// delete its own copy.
func (s *Store) CreateVerified(ctx context.Context, key string, data []byte) (replaced bool, err error) {
	err = s.Create(ctx, key, data)
	if !errors.Is(err, ErrExist) {
		return false, err
	}
	old, err := s.Read(ctx, key)
	if err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	if err != nil && !errors.Is(err, ErrNotExist) {
		return false, err
	}
	// A broken object, or one deleted since Create saw it.
	if err := s.Put(ctx, key, data); err != nil {
		return false, err
	}
	return true, nil
}

// Put writes data under key, replacing any object there. Readers see the
// old or the new content, never a mix; a write that fails (a full disk, a
// lost connection) leaves the old content. On file:// the new content is
// synced to disk before it replaces the old (see driver_file.go).
func (s *Store) Put(ctx context.Context, key string, data []byte) error {
	return s.write(ctx, "put", key, data, false)
}

func (s *Store) write(ctx context.Context, op, key string, data []byte, createOnly bool) error {
	if err := checkKey(key); err != nil {
		return &OpError{op, s.loc, key, err}
	}
	err := s.retry(ctx, op, key, func() error { return s.b.write(ctx, key, data, createOnly) })
	if err != nil {
		return &OpError{op, s.loc, key, err}
	}
	return nil
}

// Read returns the content of key, or an error wrapping ErrNotExist.
func (s *Store) Read(ctx context.Context, key string) ([]byte, error) {
	if err := checkKey(key); err != nil {
		return nil, &OpError{"read", s.loc, key, err}
	}
	var data []byte
	err := s.retry(ctx, "read", key, func() error {
		var err error
		data, err = s.b.read(ctx, key)
		return err
	})
	if err != nil {
		return nil, &OpError{"read", s.loc, key, err}
	}
	return data, nil
}

// Object is one entry of a listing.
type Object struct {
	Key     string
	Size    int64
	ModTime time.Time // as the storage server's (or file system's) clock saw it
}

// List returns the objects whose keys start with prefix, sorted by key.
// The temporary files that a killed writer left behind and hidden names
// (runfiles.IsTemp) are skipped.
//
// A bucket's listing may fail with NotFound when an object vanishes while
// it lists (a writer's temporary file renamed). That is a race, not an
// answer, so List starts over (up to listRestarts times, at once) before
// it gives up.
func (s *Store) List(ctx context.Context, prefix string) ([]Object, error) {
	var out []Object
	err := s.retry(ctx, "list", prefix, func() error {
		var err error
		for range listRestarts {
			if out, err = s.b.list(ctx, prefix, out[:0]); !errors.Is(err, ErrNotExist) {
				break
			}
		}
		return err
	})
	if err != nil {
		return nil, &OpError{"list", s.loc, prefix, err}
	}
	out = slices.DeleteFunc(out, func(o Object) bool { return runfiles.IsTemp(o.Key) })
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

// listRestarts bounds how often List starts over after an object
// vanished while it listed.
const listRestarts = 20

// Delete removes key; a missing key is not an error.
func (s *Store) Delete(ctx context.Context, key string) error {
	err := s.retry(ctx, "delete", key, func() error { return s.b.delete(ctx, key) })
	if err != nil {
		return &OpError{"delete", s.loc, key, err}
	}
	return nil
}

// DeleteAll removes every object whose key starts with prefix + "/" (a
// folder of the run); on file:// the folders left empty go too, so that
// the directory keeps the layout it had before they were written.
func (s *Store) DeleteAll(ctx context.Context, prefix string) error {
	objs, err := s.List(ctx, prefix+"/")
	if err != nil {
		return err
	}
	for _, o := range objs {
		if err := s.Delete(ctx, o.Key); err != nil {
			return err
		}
	}
	if fb, ok := s.b.(*fileBackend); ok {
		removeEmptyDirs(fb.path(prefix))
	}
	return nil
}

// checkKey refuses keys that no backend stores alike (control
// characters, backslashes, and "__0x", which gocloud's fileblob escapes),
// so that a key is its file's path on file://.
func checkKey(key string) error {
	switch {
	case key == "" || strings.HasPrefix(key, "/") || strings.HasSuffix(key, "/"):
		return fmt.Errorf("invalid key %q", key)
	case runfiles.IsTemp(key):
		return fmt.Errorf("invalid key %q: names a temporary or hidden file", key)
	case strings.ContainsFunc(key, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' }) || strings.Contains(key, "__0x"):
		return fmt.Errorf("invalid key %q: control characters, backslashes and \"__0x\" are not stored alike everywhere", key)
	}
	for _, e := range strings.Split(key, "/") {
		if e == "" || e == "." || e == ".." {
			return fmt.Errorf("invalid key %q", key)
		}
	}
	return nil
}
