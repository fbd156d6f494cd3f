package selfplay

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/konanezero/konane/net/train"
	"github.com/konanezero/konane/runfiles"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/runstore"
)

// The fixtures under testdata/ are runs made by the code of commit
// a03df0f, each stopped after two generations: run-local (konane train,
// playing its own games) and run-workers (a trainer fed by two workers,
// on file://). They pin what a run's files are: the code of today must
// resume them and, for the local run, make byte for byte what a03df0f
// made from them in the third generation (the hashes below). Rewrite them
// only on purpose, with -update-fixtures, and record the new hashes.
var updateFixtures = flag.Bool("update-fixtures", false, "rewrite testdata/run-local and testdata/run-workers")

// fixtureConfig is the run of the fixtures: tinyConfig, smaller still,
// without a schedule (a03df0f's configurations had none: a constant rate).
func fixtureConfig() Config {
	c := tinyConfig()
	c.Schedule = nil
	c.GamesPerGen = 4
	c.Parallel = 2
	c.MinWindow, c.MaxWindow = 40, 200
	c.Generations = 2
	return c
}

// What a03df0f made in the third generation resumed from
// testdata/run-local: the sha256 of the samples of replay/gen-000003.shard
// (the bytes between its header and its checksum) and of the tensors of
// models/gen-000003.safetensors (the bytes after its header).
//
// The tensors depend on the matrix-multiply kernel: a03df0f's default
// build multiplied with gonum (still the default off amd64); the amd64
// default build now computes every output as one chain of fused
// multiply-adds (net's fmaBLAS, issue 35), the same on its AVX-512, AVX2
// and portable kernels, so a third hash, recorded when that kernel
// landed. The samples (games of generation 2's model) are a03df0f's on
// both.
const (
	localGen3Samples      = "7f7ccdffa0726a6bbc28182fa3ca3e5f6e9bfc8ab9868d541d1cfea10c914029"
	localGen3TensorsGonum = "b0212f4506566fafbd2f4e72f2203f916ece6094b647fd4d9ee19736ec6314aa"
	localGen3TensorsFMA   = "1ea8632e3e76c109e1cc5e3281c0cdce523b130afd9768c15200297c7d4c1d4a"
)

// localGen3Tensors is the tensors' hash this build's kernel makes, or ""
// for a kernel without a recorded hash (OpenBLAS: its sums depend on the
// library's build).
func localGen3Tensors() string {
	switch {
	case strings.HasSuffix(net.Backend, "gonum"):
		return localGen3TensorsGonum
	case strings.HasPrefix(net.Backend, "pure Go"):
		return localGen3TensorsFMA
	}
	return ""
}

func TestMakeFixtures(t *testing.T) {
	if !*updateFixtures {
		t.Skip("rewrites testdata only with -update-fixtures")
	}
	ctx := context.Background()
	local := filepath.Join("testdata", "run-local")
	os.RemoveAll(local)
	mustRun(t, local, fixtureConfig())
	os.Remove(filepath.Join(local, "lock"))
	os.Remove(filepath.Join(local, runfiles.PlotFile))

	workers := filepath.Join("testdata", "run-workers")
	os.RemoveAll(workers)
	store, err := runstore.Open(ctx, workers)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	stop := feedWorkers(t, ctx, store, 2)
	err = TrainFromWorkers(ctx, store, fixtureConfig(), train.New, Hooks{}, t.Logf)
	stop()
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(workers, runfiles.PlotFile))
	os.Remove(filepath.Join(workers, "lock"))
}

// feedWorkers starts n workers on store; stop stops them and waits.
func feedWorkers(t *testing.T, ctx context.Context, store *runstore.Store, n int) (stop func()) {
	wctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i := range n {
		sp, err := runstore.OpenSpool(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer sp.Close()
			wc := WorkerConfig{Parallel: 2, Seed: uint64(i + 1), Poll: 50 * time.Millisecond}
			if err := Work(wctx, store, sp, wc, WorkerHooks{}, t.Logf); err != nil {
				t.Errorf("worker %d: %v", i, err)
			}
		}()
	}
	return func() { cancel(); wg.Wait() }
}

// copyFixture copies testdata/name into a new temporary directory.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("testdata", name)
	dst := filepath.Join(t.TempDir(), name)
	err := filepath.WalkDir(src, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if e.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// shardSamplesHash hashes the samples of a shard file: the bytes between
// its header (16 bytes in version 1, 28 in version 2) and its 4-byte
// checksum.
func shardSamplesHash(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 20 || string(b[:4]) != shardMagic {
		t.Fatalf("%s: not a shard", path)
	}
	header := shardHeader
	if binary.LittleEndian.Uint32(b[4:]) == 2 {
		header += shardTagBytes
	}
	return sha(b[header : len(b)-4])
}

// modelTensorsHash hashes the tensors of a safetensors file: the bytes
// after its length-prefixed JSON header.
func modelTensorsHash(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := binary.LittleEndian.Uint64(b)
	if len(b) < 8 || n > uint64(len(b)-8) {
		t.Fatalf("%s: not a safetensors file", path)
	}
	return sha(b[8+n:])
}

// TestResumeLocalFixture resumes the local run made by a03df0f for one
// more generation: its shard and model are those a03df0f made.
func TestResumeLocalFixture(t *testing.T) {
	dir := copyFixture(t, "run-local")
	cfg := fixtureConfig()
	cfg.Generations = 3
	mustRun(t, dir, cfg)
	st, err := NewRunDir(dir).readState()
	if err != nil || st.Generation != 3 {
		t.Fatalf("state %+v, %v; want generation 3", st, err)
	}
	samples := shardSamplesHash(t, filepath.Join(dir, runfiles.ReplayDir, runfiles.ShardName(3)))
	tensors := modelTensorsHash(t, filepath.Join(dir, runfiles.ModelsDir, runfiles.ModelName(3)))
	t.Logf("generation 3: samples %s, tensors %s", samples, tensors)
	if samples != localGen3Samples {
		t.Errorf("generation 3's samples hash to %s, a03df0f made %s", samples, localGen3Samples)
	}
	if want := localGen3Tensors(); want == "" {
		t.Logf("no recorded tensors hash for backend %q", net.Backend)
	} else if tensors != want {
		t.Errorf("generation 3's model tensors hash to %s on %s, want %s", tensors, net.Backend, want)
	}
}

// TestResumeWorkersFixture resumes the worker-fed run made by a03df0f
// for one more generation, fed by one worker: it trains on new games of
// the accepted models only, none trained on before.
func TestResumeWorkersFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a worker")
	}
	ctx := context.Background()
	dir := copyFixture(t, "run-workers")
	store, err := runstore.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	before := map[string]bool{}
	for g := 1; g <= 2; g++ {
		b, err := store.Read(ctx, "replay/"+runfiles.KeysName(g))
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range strings.Fields(string(b)) {
			before[k] = true
		}
	}
	cfg := fixtureConfig()
	cfg.Generations = 3
	stop := feedWorkers(t, ctx, store, 1)
	err = TrainFromWorkers(ctx, store, cfg, train.New, Hooks{}, t.Logf)
	stop()
	if err != nil {
		t.Fatal(err)
	}
	b, err := store.Read(ctx, "replay/"+runfiles.KeysName(3))
	if err != nil {
		t.Fatal(err)
	}
	keys := strings.Fields(string(b))
	if len(keys) < cfg.GamesPerGen {
		t.Errorf("generation 3 trained on %d games, want at least %d", len(keys), cfg.GamesPerGen)
	}
	for _, k := range keys {
		if g, _, ok := runfiles.ParseWorkerShardKey(k); !ok || g < 3-AcceptWindow {
			t.Errorf("generation 3 trained on %s, outside the window", k)
		}
		if before[k] {
			t.Errorf("%s trained on again", k)
		}
	}
	l, err := store.ReadLatest(ctx)
	if err != nil || l.Generation != 3 {
		t.Fatalf("pointer %+v, %v; want generation 3", l, err)
	}
}
