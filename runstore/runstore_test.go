package runstore

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/konanezero/konane/runfiles"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The conformance suite: every test below runs against each store of
// testStores — a temporary directory always, and the S3 server named by
// KONANE_TEST_S3 (a bucket URL; each test takes a fresh prefix in it) when
// set. KONANE_REQUIRE_S3=1 (set by .ci/run) makes a missing server fail.
func testStores(t *testing.T) map[string]func(t *testing.T) *Store {
	stores := map[string]func(t *testing.T) *Store{
		"file": func(t *testing.T) *Store { return open(t, t.TempDir()) },
	}
	base := os.Getenv("KONANE_TEST_S3")
	if base == "" && os.Getenv("KONANE_REQUIRE_S3") != "" {
		t.Fatal("KONANE_REQUIRE_S3 is set but KONANE_TEST_S3 names no S3 server")
	}
	if base != "" && !linked["s3"] {
		t.Fatal("KONANE_TEST_S3 is set but this build has no s3 driver: go test -tags s3")
	}
	if base != "" {
		stores["s3"] = func(t *testing.T) *Store { return open(t, freshPrefix(base)) }
	}
	return stores
}

// freshPrefix returns a bucket URL with a fresh random path under base.
func freshPrefix(base string) string {
	var b [6]byte
	rand.Read(b[:])
	scheme, rest, _ := strings.Cut(base, "://")
	bucket, query, _ := strings.Cut(rest, "?")
	u := scheme + "://" + strings.TrimSuffix(bucket, "/") + "/test-" + hex.EncodeToString(b[:])
	if query != "" {
		u += "?" + query
	}
	return u
}

func open(t *testing.T, loc string) *Store {
	t.Helper()
	s, err := Open(context.Background(), loc)
	if err != nil {
		t.Fatal(err)
	}
	s.Backoff = Backoff{Attempts: 3, First: 10 * time.Millisecond, Max: 50 * time.Millisecond}
	t.Cleanup(func() { s.Close() })
	return s
}

// list lists prefix in s, failing t on an error, and returns the
// objects and their keys joined by spaces.
func list(t *testing.T, s *Store, prefix string) ([]Object, string) {
	t.Helper()
	objs, err := s.List(context.Background(), prefix)
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, len(objs))
	for i, o := range objs {
		keys[i] = o.Key
	}
	return objs, strings.Join(keys, " ")
}

func forEachStore(t *testing.T, f func(t *testing.T, s *Store)) {
	for name, mk := range testStores(t) {
		t.Run(name, func(t *testing.T) { f(t, mk(t)) })
	}
}

func TestCreateOnly(t *testing.T) {
	forEachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if _, err := s.Read(ctx, "replay/a.shard"); !errors.Is(err, ErrNotExist) {
			t.Fatalf("read of a missing key: %v, want ErrNotExist", err)
		}
		if err := s.Create(ctx, "replay/a.shard", []byte("one")); err != nil {
			t.Fatal(err)
		}
		err := s.Create(ctx, "replay/a.shard", []byte("two"))
		var oe *OpError
		if !errors.Is(err, ErrExist) || !errors.As(err, &oe) || oe.Key != "replay/a.shard" || oe.Op != "create" {
			t.Fatalf("second create: %v, want an OpError wrapping ErrExist", err)
		}
		if b, err := s.Read(ctx, "replay/a.shard"); err != nil || string(b) != "one" {
			t.Fatalf("after a refused create: %q, %v; want the first content", b, err)
		}
		if err := s.Put(ctx, "state.json", []byte("1")); err != nil {
			t.Fatal(err)
		}
		if err := s.Put(ctx, "state.json", []byte("2")); err != nil {
			t.Fatal(err)
		}
		if b, _ := s.Read(ctx, "state.json"); string(b) != "2" {
			t.Fatalf("put replaced with %q, want 2", b)
		}
		for _, bad := range []string{"", "/abs", "dir/", "a//b", "../x", "a/./b", "x.tmp", ".hidden", "a/.b/c"} {
			if err := s.Put(ctx, bad, nil); err == nil {
				t.Errorf("put of key %q succeeded, want an error", bad)
			}
		}
	})
}

func TestCreateRace(t *testing.T) {
	forEachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		data := bytes.Repeat([]byte("game"), 1000)
		key := "replay/gen-000001/" + SHA256(data) + ".shard"
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = s.Create(ctx, key, data) }()
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, ErrExist):
				t.Fatalf("racing create: %v", err)
			}
		}
		if won == 0 {
			t.Fatal("no racing create succeeded")
		}
		if b, err := s.ReadVerified(ctx, key, SHA256(data)); err != nil || len(b) != len(data) {
			t.Fatalf("after the race: %d bytes, %v", len(b), err)
		}
	})
}

func TestList(t *testing.T) {
	forEachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		keys := []string{"replay/gen-000002/b.shard", "replay/gen-000001/z.shard", "replay/gen-000001/a.shard", "models/gen-000001.safetensors"}
		for _, k := range keys {
			if err := s.Create(ctx, k, []byte(k)); err != nil {
				t.Fatal(err)
			}
		}
		// What a writer killed mid-write leaves behind: internal/atomicfile's
		// .NAME.tmpNNN, gocloud fileblob's NAME.<hex>.tmp.
		for _, k := range []string{"replay/gen-000001/.c.shard.tmp123", "replay/gen-000001/c.shard.18a3f.tmp"} {
			if err := s.b.write(ctx, k, []byte("half"), false); err != nil {
				t.Fatal(err)
			}
		}
		objs, got := list(t, s, "replay/")
		for _, o := range objs {
			if o.Size != int64(len(o.Key)) || o.ModTime.IsZero() {
				t.Errorf("%s: size %d, mod time %v", o.Key, o.Size, o.ModTime)
			}
		}
		if want := "replay/gen-000001/a.shard replay/gen-000001/z.shard replay/gen-000002/b.shard"; got != want {
			t.Fatalf("list replay/: %v, want %s", got, want)
		}
		if objs, _ := s.List(ctx, "nothing/"); len(objs) != 0 {
			t.Fatalf("list of an empty prefix: %v", objs)
		}
	})
}

// TestDeleteAll: a folder's objects go, and no other (a key that only
// starts like the folder stays); on file:// the folder goes too.
func TestDeleteAll(t *testing.T) {
	forEachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		for _, k := range []string{"replay/gen-000001/a.shard", "replay/gen-000001/sub/b.shard", "replay/gen-000001.shard", "replay/gen-000002/c.shard"} {
			if err := s.Put(ctx, k, []byte(k)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.DeleteAll(ctx, "replay/gen-000001"); err != nil {
			t.Fatal(err)
		}
		if _, got := list(t, s, "replay/"); got != "replay/gen-000001.shard replay/gen-000002/c.shard" {
			t.Errorf("left %s, want replay/gen-000001.shard replay/gen-000002/c.shard", got)
		}
		if s.Dir() != "" {
			if _, err := os.Stat(filepath.Join(s.Dir(), "replay", "gen-000001")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the emptied folder: %v, want it gone", err)
			}
			if n := s.Name("replay/gen-000002/c.shard"); n != filepath.Join(s.Dir(), "replay", "gen-000002", "c.shard") {
				t.Errorf("Name: %s, want the file's path", n)
			}
		} else if n := s.Name("a/b"); !strings.HasSuffix(n, " a/b") {
			t.Errorf("Name: %s, want the location and the key", n)
		}
	})
}

// TestListWhileWriting: listing a prefix while writers create objects in
// it never fails. On file:// a writer's temporary file renamed between
// the directory read and the entry's lstat made List fail with NotFound
// (seen in the fault test: "list replay/gen-000000/ …: lstat ….tmp: no
// such file or directory").
func TestListWhileWriting(t *testing.T) {
	forEachStore(t, func(t *testing.T, s *Store) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		writers := make(chan error, 2)
		for w := range 2 {
			go func() {
				for i := 0; ctx.Err() == nil; i++ {
					key := fmt.Sprintf("replay/gen-000001/%d-%05d.shard", w, i)
					if err := s.Create(ctx, key, bytes.Repeat([]byte{byte(i)}, 4096)); err != nil && ctx.Err() == nil {
						writers <- err
						return
					}
				}
				writers <- nil
			}()
		}
		seen := 0
		for start := time.Now(); seen < 300 && time.Since(start) < 3*time.Second; {
			objs, err := s.List(ctx, "replay/")
			if err != nil {
				t.Fatalf("list while writing: %v", err)
			}
			if len(objs) < seen {
				t.Fatalf("a listing lost objects: %d after %d", len(objs), seen)
			}
			seen = len(objs)
		}
		cancel()
		for range 2 {
			if err := <-writers; err != nil {
				t.Errorf("writer: %v", err)
			}
		}
		if seen == 0 {
			t.Error("the writers wrote nothing while the listings ran")
		}
	})
}

func TestLatestPointer(t *testing.T) {
	forEachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if _, err := s.ReadLatest(ctx); !errors.Is(err, ErrNotExist) {
			t.Fatalf("pointer of a new run: %v, want ErrNotExist", err)
		}
		model := []byte("weights of generation 3")
		if err := s.Create(ctx, "models/gen-000003.safetensors", model); err != nil {
			t.Fatal(err)
		}
		want := runfiles.Latest{Generation: 3, Model: "models/gen-000003.safetensors", SHA256: SHA256(model), GamesPerGen: 64, Window: 2}
		if err := s.WriteLatest(ctx, want); err != nil {
			t.Fatal(err)
		}
		got, err := s.ReadLatest(ctx)
		if err != nil || got != want {
			t.Fatalf("pointer %+v, %v; want %+v", got, err, want)
		}
		if _, err := s.ReadVerified(ctx, got.Model, got.SHA256); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ReadVerified(ctx, got.Model, SHA256([]byte("other"))); err == nil || !strings.Contains(err.Error(), "sha256") {
			t.Fatalf("read with a wrong sum: %v, want a sha256 error", err)
		}
	})
}

func TestLease(t *testing.T) {
	forEachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		defer func(h func() string) { hostname = h }(hostname)
		hostname = func() string { return "trainer-a" }
		a, err := s.Acquire(ctx, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Check(ctx); err != nil {
			t.Fatalf("fresh lease: %v", err)
		}
		hostname = func() string { return "trainer-b" }
		_, err = s.Acquire(ctx, time.Minute)
		var held *HeldError
		if !errors.As(err, &held) || held.Holder.Host != "trainer-a" {
			t.Fatalf("second trainer: %v, want a HeldError naming trainer-a", err)
		}
		if err := a.Release(ctx); err != nil {
			t.Fatal(err)
		}
		b, err := s.Acquire(ctx, time.Minute)
		if err != nil {
			t.Fatalf("after a release: %v", err)
		}
		if b.Epoch() != a.Epoch()+1 {
			t.Fatalf("epochs %d then %d", a.Epoch(), b.Epoch())
		}
		var lost *LostError
		if err := a.Check(ctx); !errors.As(err, &lost) {
			t.Fatalf("old holder's check: %v, want a LostError (fenced)", err)
		}
		if err := a.Beat(ctx); !errors.As(err, &lost) {
			t.Fatalf("old holder's heartbeat: %v, want a LostError", err)
		}
		b.unlock() // as if trainer-b crashed: its flock goes, its heartbeat stays
		if s.Dir() == "" {
			hostname = func() string { return "trainer-c" }
			if _, err := s.Acquire(ctx, time.Minute); !errors.As(err, &held) {
				t.Fatalf("while trainer-b's heartbeat is fresh: %v, want a HeldError", err)
			}
		}
		// A crashed holder's heartbeat expires after the TTL. Object stores
		// keep modification times to the second (S3's Last-Modified), so an
		// age is only seen once a second has passed on the server's clock.
		if s.Dir() == "" {
			time.Sleep(1100 * time.Millisecond)
		}
		c, err := s.Acquire(ctx, time.Nanosecond)
		if err != nil {
			t.Fatalf("after the holder crashed: %v", err)
		}
		if c.Epoch() != b.Epoch()+1 {
			t.Fatalf("epochs %d then %d", b.Epoch(), c.Epoch())
		}
		c.Release(ctx)
	})
}

func TestLeaseCrashedOnThisMachine(t *testing.T) {
	forEachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		// A holder on this machine whose process is gone (a trainer that
		// was killed and restarted) is taken over at once, TTL or not.
		dead := Holder{Host: hostname(), PID: 1 << 30}
		b := []byte(fmt.Sprintf(`{"host":%q,"pid":%d}`, dead.Host, dead.PID))
		if err := s.Create(ctx, epochKey(1), b); err != nil {
			t.Fatal(err)
		}
		if err := s.Put(ctx, beatKey(1), []byte(`{"epoch":1,"n":1}`)); err != nil {
			t.Fatal(err)
		}
		l, err := s.Acquire(ctx, time.Hour)
		if err != nil {
			t.Fatalf("taking over from a dead process: %v", err)
		}
		if l.Epoch() != 2 {
			t.Fatalf("epoch %d, want 2", l.Epoch())
		}
		l.Release(ctx)
	})
}

func TestSpoolReplay(t *testing.T) {
	forEachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		dir := t.TempDir()
		sp, err := OpenSpool(dir)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for i := range 3 {
			data := []byte(fmt.Sprintf("batch %d", i))
			name := SHA256(data) + ".shard"
			if err := sp.Add(name, data); err != nil {
				t.Fatal(err)
			}
			want = append(want, "replay/gen-000001/"+name)
		}
		os.WriteFile(filepath.Join(dir, ".x.shard.tmp123"), []byte("torn"), 0o644) // an interrupted Add
		var locked *SpoolLockedError
		if _, err := OpenSpool(dir); !errors.As(err, &locked) {
			t.Fatalf("second owner of a spool: %v, want SpoolLockedError", err)
		}
		// One entry was uploaded before the worker died, but not removed.
		first, _ := sp.Pending()
		b, _ := sp.Read(first[0])
		if err := s.Create(ctx, "replay/gen-000001/"+first[0], b); err != nil {
			t.Fatal(err)
		}
		sp.Close()

		sp, err = OpenSpool(dir) // the restarted worker
		if err != nil {
			t.Fatal(err)
		}
		defer sp.Close()
		names, err := sp.Pending()
		if err != nil || len(names) != 3 {
			t.Fatalf("pending after restart: %v, %v; want 3 entries", names, err)
		}
		for _, n := range names {
			b, err := sp.Read(n)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Create(ctx, "replay/gen-000001/"+n, b); err != nil && !errors.Is(err, ErrExist) {
				t.Fatal(err)
			}
			if err := sp.Remove(n); err != nil {
				t.Fatal(err)
			}
		}
		if names, _ := sp.Pending(); len(names) != 0 {
			t.Fatalf("pending after upload: %v", names)
		}
		objs, got := list(t, s, "replay/")
		for _, o := range objs {
			if b, _ := s.Read(ctx, o.Key); SHA256(b)+".shard" != filepath.Base(o.Key) {
				t.Errorf("%s holds other content", o.Key)
			}
		}
		if len(objs) != 3 {
			t.Fatalf("uploaded %v, want 3 shards once each", got)
		}
	})
}

func TestOpen(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "run")
	for _, loc := range []string{dir, "file://" + dir} {
		s, err := Open(ctx, loc)
		if err != nil {
			t.Fatalf("open %s: %v", loc, err)
		}
		if s.Dir() != dir {
			t.Errorf("open %s: dir %s", loc, s.Dir())
		}
		if err := s.Put(ctx, "models/latest", []byte("x")); err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	// The local layout stays plain: no metadata sidecars, no temp files.
	var files []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			files = append(files, strings.TrimPrefix(p, dir+"/"))
		}
		return nil
	})
	if strings.Join(files, " ") != "models/latest" {
		t.Fatalf("files in a file:// run: %v", files)
	}
	for _, bad := range []string{"", "file://otherhost/x", "nosuch://bucket"} {
		if _, err := Open(ctx, bad); err == nil {
			t.Errorf("open %q succeeded, want an error", bad)
		}
	}
}

func TestBackoff(t *testing.T) {
	b := Backoff{Attempts: 5, First: 100 * time.Millisecond, Max: time.Second}
	for attempt, want := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 4: 800 * time.Millisecond, 9: time.Second} {
		if d := b.Wait(attempt); d < want*3/4 || d > want*5/4 {
			t.Errorf("wait after attempt %d: %v, want %v ± 25%%", attempt, d, want)
		}
	}
	s := open(t, t.TempDir())
	calls := 0
	err := s.retry(context.Background(), "read", "k", func() error { calls++; return errors.New("connection reset") })
	if err == nil || calls != s.Backoff.Attempts {
		t.Fatalf("transient failure: %d calls, %v; want %d calls and the error", calls, err, s.Backoff.Attempts)
	}
	calls = 0
	s.retry(context.Background(), "read", "k", func() error { calls++; return context.Canceled })
	if calls != 1 {
		t.Fatalf("a cancelled call was tried %d times", calls)
	}
	// Errors a retry cannot change are given up at once (issue 47), and
	// are not taken for the store working again.
	var reports []Retrying
	s = open(t, t.TempDir())
	s.Report = func(r Retrying) { reports = append(reports, r) }
	s.Backoff = Backoff{Attempts: 3, First: time.Millisecond, Max: time.Millisecond}
	s.retry(context.Background(), "put", "k", func() error { return errors.New("connection reset") })
	for _, errno := range []syscall.Errno{syscall.EEXIST, syscall.EISDIR, syscall.ENOTDIR} {
		calls = 0
		err := s.retry(context.Background(), "put", "k", func() error { calls++; return &fs.PathError{Op: "open", Path: "k", Err: errno} })
		if calls != 1 || !errors.Is(err, errno) {
			t.Errorf("%v: %d calls, %v; want 1 and the error", errno, calls, err)
		}
	}
	if len(reports) != 1 || reports[0].Err == nil {
		t.Errorf("reports %+v; want the first failure only, no recovery", reports)
	}
}

func FuzzParseLatest(f *testing.F) {
	f.Add([]byte(`{"generation":3,"model":"models/gen-000003.safetensors","sha256":"` + strings.Repeat("ab", 32) + `","games_per_gen":64,"window":2}`))
	f.Add([]byte(`{"generation":-1}`))
	f.Add([]byte(`{"model":"../x","sha256":"zz"}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := runfiles.ParseLatest(b)
		if err != nil {
			return
		}
		if len(l.SHA256) != 64 || checkKey(l.Model) != nil || l.Generation < 0 {
			t.Fatalf("accepted an invalid pointer %+v", l)
		}
	})
}

// TestOpenUnknownScheme checks that a location whose storage is not in
// the build is refused with one line saying what is and how to get it.
func TestOpenUnknownScheme(t *testing.T) {
	for _, c := range []struct{ loc, says string }{
		{"ftp://host/run", `unknown storage scheme "ftp"`},
		{"S3X://bucket/run", `unknown storage scheme "s3x"`},
		{"s3://bucket/run?endpoint=http://127.0.0.1:8333", "-tags s3"},
		{"gs://bucket/run", "-tags gcs"},
		{"azblob://container/run", "-tags azure"},
	} {
		scheme, _, _ := strings.Cut(c.loc, "://")
		if linked[scheme] {
			continue // built with its driver
		}
		_, err := Open(context.Background(), c.loc)
		if err == nil || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), c.loc) || strings.Count(err.Error(), "runstore:") != 1 {
			t.Errorf("Open(%s): %v; want one error naming it and saying %q", c.loc, err, c.says)
		}
		// A bucket's missing driver is a *DriverError naming the tag.
		d, isDriver := errors.AsType[*DriverError](err)
		if wantTag, bucket := strings.CutPrefix(c.says, "-tags "); isDriver != bucket || bucket && d.Tag != wantTag {
			t.Errorf("Open(%s): %v: a *DriverError %v (%+v), want one %v with tag %q", c.loc, err, isDriver, d, bucket, wantTag)
		}
	}
	// The texts, word for word.
	for scheme, want := range map[string]string{
		"s3":     "s3:// (S3 and compatible servers) is not in this build: build konane with -tags s3 (as the container image is), or use a path or file:// URL",
		"gs":     "gs:// (Google Cloud Storage) is not in this build: build konane with -tags gcs, or with -tags s3 and use the bucket through GCS's S3 interface: s3://BUCKET/PREFIX?endpoint=https://storage.googleapis.com with HMAC keys",
		"azblob": "azblob:// (Azure Blob Storage) is not in this build: build konane with -tags azure",
	} {
		if linked[scheme] {
			continue
		}
		if err := checkScheme(scheme); err == nil || err.Error() != want {
			t.Errorf("checkScheme(%s) = %v, want %q", scheme, err, want)
		}
	}
}

// TestReadFolder: a key that is a folder on file:// is reported as one,
// not as missing (issue 47).
func TestReadFolder(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	if err := os.Mkdir(filepath.Join(dir, "config.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := s.Read(context.Background(), "config.json")
	if errors.Is(err, ErrNotExist) || !errors.Is(err, syscall.EISDIR) {
		t.Fatalf("read of a folder: %v, want EISDIR", err)
	}
}

// TestRemoveStale: the temporary files of killed writers go once they
// are older than the limit; younger ones (writes in progress) stay.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	folder := filepath.Join(dir, "replay", "gen-000001")
	os.MkdirAll(folder, 0o755)
	old, young := filepath.Join(folder, ".a.shard.tmp123"), filepath.Join(folder, ".b.shard.tmp456")
	game := filepath.Join(folder, "c.shard")
	for _, p := range []string{old, young, game} {
		os.WriteFile(p, []byte("x"), 0o644)
	}
	hourAgo := time.Now().Add(-time.Hour)
	os.Chtimes(old, hourAgo, hourAgo)
	os.Chtimes(game, hourAgo, hourAgo)
	s.RemoveStale("replay/", time.Now().Add(-10*time.Minute))
	for p, want := range map[string]bool{old: false, young: true, game: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}

// TestListSymlinkedRun: a run directory that is a symbolic link (to a
// folder on another disk) lists its objects like the folder itself.
func TestListSymlinkedRun(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "run")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("symlink: %v", err)
	}
	s := open(t, link)
	ctx := context.Background()
	for _, k := range []string{"state.json", "models/gen-000001.safetensors"} {
		if err := s.Put(ctx, k, []byte(k)); err != nil {
			t.Fatal(err)
		}
	}
	for prefix, want := range map[string]string{"": "models/gen-000001.safetensors state.json", "models/": "models/gen-000001.safetensors", "state": "state.json"} {
		if _, got := list(t, s, prefix); got != want {
			t.Errorf("list %q in a linked run: %v, want %s", prefix, got, want)
		}
	}
}
