package selfplay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/internal/lockfile"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/runfiles"
	"github.com/konanezero/konane/runstore"
)

// RunDir is a training run's directory: the one place through which
// every read and write of a run goes, whether the run is a local
// directory (OpenRunDir, the trainer that plays its own games) or a
// runstore.Store, a directory or a bucket shared with self-play workers
// (OpenStoreRunDir, the trainer fed by workers). The names and formats of
// its files are package runfiles'. Files are written atomically
// (internal/atomicfile locally, runstore.Store's writes otherwise); the
// temporary files of a writer that was killed are removed by OpenRunDir,
// and skipped by the listings of a Store. A run has its state.json from
// its creation on.
type RunDir struct {
	root  string
	lock  *lockfile.Lock  // the trainer's, from OpenRunDir until Close
	store *runstore.Store // the run's store, nil for a local directory
	stage string          // a store's local folder for files passing to and from it
	run   uint64          // the run's identity (its seed), known once its configuration is
	ctx   context.Context // of a store's operations
}

// Files and folders of a run directory (runfiles names them all).
const (
	lockFile    = runfiles.LockFile
	configFile  = runfiles.ConfigFile
	stateFile   = runfiles.StateFile
	metricsFile = runfiles.MetricsFile
	plotFile    = runfiles.PlotFile
	replayDir   = runfiles.ReplayDir
	gamesDir    = runfiles.GamesDir
	modelsDir   = runfiles.ModelsDir
	ckptDir     = runfiles.CheckpointsDir
	latestFile  = runfiles.LatestFile
)

// NewRunDir returns the run directory root without touching it (to ask
// HasRun, or to read its models).
func NewRunDir(root string) *RunDir { return &RunDir{root: root} }

// OpenStoreRunDir returns the run in store, for a trainer fed by workers
// (TrainFromWorkers), which holds the store's lease; Close removes its
// local staging folder. ctx bounds every operation on the store.
func OpenStoreRunDir(ctx context.Context, store *runstore.Store) (*RunDir, error) {
	stage, err := os.MkdirTemp("", "konane-run-*")
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	return &RunDir{root: store.Location(), store: store, stage: stage, ctx: ctx}, nil
}

// OpenRunDir makes the folders of a run directory, if missing, takes the
// trainer's exclusive lock on it, and removes the temporary files that a
// killed writer left behind (the files they were meant to replace are
// intact), ready for a trainer; Close releases the lock. One trainer at a
// time: if another process (or another OpenRunDir in this one) holds the
// lock, the error is a *LockedError. The lock is an flock on DIR/lock
// (internal/lockfile), which the kernel drops when its process dies, even
// by kill -9, so it is never stale.
func OpenRunDir(root string) (*RunDir, error) {
	d := NewRunDir(root)
	for _, sub := range []string{"", replayDir, gamesDir, modelsDir, ckptDir} {
		if err := os.MkdirAll(filepath.Join(root, sub), 0o755); err != nil {
			return nil, fmt.Errorf("selfplay: %w", err)
		}
	}
	lock, err := lockfile.Acquire(d.path(lockFile))
	var busy *lockfile.BusyError
	if errors.As(err, &busy) {
		return nil, &LockedError{Dir: root, PID: busy.PID}
	}
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	d.lock = lock
	filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && atomicfile.IsTemp(e.Name()) {
			os.Remove(path)
		}
		return nil
	})
	return d, nil
}

// Close releases the trainer's lock taken by OpenRunDir, or removes the
// staging folder of OpenStoreRunDir.
func (d *RunDir) Close() error {
	if d.store != nil {
		return os.RemoveAll(d.stage)
	}
	return d.lock.Release()
}

// LockedError reports a run directory already held by another trainer.
type LockedError struct {
	Dir string
	PID int // of the process holding it (0: not known)
}

func (e *LockedError) Error() string {
	pid := "pid unknown"
	if e.PID > 0 {
		pid = fmt.Sprintf("pid %d", e.PID)
	}
	return fmt.Sprintf("selfplay: run directory %s is in use by another trainer (%s)", e.Dir, pid)
}

// String is the directory's path.
func (d *RunDir) String() string { return d.root }

func (d *RunDir) path(elem ...string) string {
	return filepath.Join(append([]string{d.root}, elem...)...)
}

// name is how errors name a file of the run: its path, or its key in the
// store.
func (d *RunDir) name(key string) string {
	if d.store != nil {
		return d.root + " " + key
	}
	return d.path(key)
}

// The primitives through which the methods below read and write the files
// of a run, by key (a slash-separated name under the run): on a local
// directory the files themselves, on a store its objects.

// readFile returns a file's content; the error wraps fs.ErrNotExist when
// it is missing.
func (d *RunDir) readFile(key string) ([]byte, error) {
	if d.store != nil {
		b, err := d.store.Read(d.ctx, key)
		if errors.Is(err, runstore.ErrNotExist) {
			err = fmt.Errorf("%w (%w)", err, fs.ErrNotExist)
		}
		return b, err
	}
	b, err := os.ReadFile(d.path(key))
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	return b, nil
}

// writeFile replaces a file, atomically.
func (d *RunDir) writeFile(key string, data []byte) error {
	if d.store != nil {
		return d.store.Put(d.ctx, key, data)
	}
	return atomicfile.WriteFile(d.path(key), data, 0o644)
}

// writeWith replaces a file with the one that write makes at path (which
// writes atomically): in place locally, staged for a store.
func (d *RunDir) writeWith(key string, write func(path string) error) error {
	if d.store == nil {
		return write(d.path(key))
	}
	path := filepath.Join(d.stage, filepath.Base(key))
	defer os.Remove(path)
	if err := write(path); err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	return d.store.Put(d.ctx, key, data)
}

// readWith lets read read a file at path: in place locally, staged from a
// store.
func (d *RunDir) readWith(key string, read func(path string) error) error {
	if d.store == nil {
		return read(d.path(key))
	}
	data, err := d.store.Read(d.ctx, key)
	if err != nil {
		return err
	}
	path := filepath.Join(d.stage, filepath.Base(key))
	defer os.Remove(path)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	return read(path)
}

// HasRun reports whether the directory holds a run (its configuration).
func (d *RunDir) HasRun() bool {
	_, err := d.readFile(configFile)
	return err == nil
}

// ReadConfig reads the run's configuration; its error wraps
// fs.ErrNotExist when the directory holds no run, and is a *FileError
// when the file is not a valid configuration (see parseConfig).
func (d *RunDir) ReadConfig() (Config, error) {
	path := d.name(configFile)
	b, err := d.readFile(configFile)
	if err != nil {
		return Config{}, err
	}
	c, err := parseConfig(b)
	if err != nil {
		return Config{}, &FileError{Path: path, Err: err}
	}
	return c, nil
}

// checkOrWriteConfig writes cfg as the run's configuration, after checking
// that a run already there has the same identity (see Config), and
// returns it. A saved configuration must be exactly one (see
// parseConfig); a directory that holds the files of a run but no
// config.json is refused (a new, empty directory starts a run). A run
// keeps the model it started from (Config.Init): a resumed run that names
// none gets the saved one, so that a run stopped before its first
// generation was complete still starts from it.
func (d *RunDir) checkOrWriteConfig(cfg Config) (Config, error) {
	path := d.name(configFile)
	saved, err := d.ReadConfig()
	if errors.Is(err, fs.ErrNotExist) {
		what, err := d.runFile()
		if err != nil {
			return cfg, err
		}
		if what != "" {
			return cfg, &FileError{Path: path, Err: fmt.Errorf("missing, but the directory holds a run (%s); restore it or train in another directory", what)}
		}
		d.run = cfg.Seed
		return cfg, d.writeJSON(configFile, cfg)
	}
	if err != nil {
		return cfg, err
	}
	if diff := configDiff(saved.identity(), cfg.identity()); diff != "" {
		return cfg, fmt.Errorf("selfplay: %s holds a run with a different configuration (%s); use the same settings or another --run directory", d.root, diff)
	}
	switch {
	case cfg.Init == "":
		cfg.Init = saved.Init
	case saved.Init != "" && cfg.Init != saved.Init:
		return cfg, fmt.Errorf("selfplay: %s holds a run started from %s, not %s", d.root, saved.Init, cfg.Init)
	}
	d.run = cfg.Seed
	return cfg, d.writeJSON(configFile, cfg)
}

// runFile names a file of the run in the directory ("" if there is none):
// anything under the folders given, or, when none is given, its state,
// metrics, or anything under models, checkpoints, replay or games (the
// lease of a store is not the run's).
func (d *RunDir) runFile(folders ...string) (string, error) {
	names := []string{stateFile, metricsFile}
	if len(folders) > 0 {
		names = nil
	} else {
		folders = []string{modelsDir, ckptDir, replayDir, gamesDir}
	}
	if d.store != nil {
		prefixes := slices.Clone(names)
		for _, f := range folders {
			prefixes = append(prefixes, f+"/")
		}
		for _, prefix := range prefixes {
			objs, err := d.store.List(d.ctx, prefix)
			if err != nil {
				return "", err
			}
			if len(objs) > 0 {
				return objs[0].Key, nil
			}
		}
		return "", nil
	}
	for _, name := range names {
		if _, err := os.Stat(d.path(name)); err == nil {
			return name, nil
		}
	}
	for _, sub := range folders {
		if es, _ := os.ReadDir(d.path(sub)); len(es) > 0 {
			return sub + "/" + es[0].Name(), nil
		}
	}
	return "", nil
}

// parseConfig reads a saved configuration: one JSON object with no field
// unknown to Config, and valid (Config.Validate).
func parseConfig(b []byte) (Config, error) {
	var c Config
	if err := decodeObject(b, &c); err != nil {
		return c, fmt.Errorf("not a run configuration: %w", err)
	}
	if err := c.Validate(); err != nil {
		return c, err
	}
	return c, nil
}

// readState returns the run's commit point; the zero state for a new
// run. A directory that holds models, checkpoints or replay but no
// state.json is refused with a *FileError naming it: state.json is
// written when a run is created (initState), so the run was damaged, and
// starting it again would overwrite its models.
func (d *RunDir) readState() (state, error) {
	path := d.name(stateFile)
	b, err := d.readFile(stateFile)
	if errors.Is(err, fs.ErrNotExist) {
		what, err := d.runFile(modelsDir, ckptDir, replayDir)
		if err != nil {
			return state{}, err
		}
		if what != "" && d.HasRun() { // without config.json, checkOrWriteConfig names that first
			return state{}, &FileError{Path: path, Err: fmt.Errorf("missing, but the directory holds a run (%s); restore it or train in another directory", what)}
		}
		return state{}, nil
	}
	if err != nil {
		return state{}, err
	}
	st, err := parseState(b)
	if err != nil {
		return state{}, &FileError{Path: path, Err: err}
	}
	return st, nil
}

// parseState reads a saved state (runfiles.ParseState).
func parseState(b []byte) (state, error) { return runfiles.ParseState(b) }

// decodeObject decodes b, which must hold exactly one JSON object, into
// v, refusing fields that v does not have (runfiles.DecodeObject).
func decodeObject(b []byte, v any) error { return runfiles.DecodeObject(b, v) }

// FileError is a file of a run directory that cannot be used as it is:
// corrupt, out of bounds, or missing while the rest of the run is there.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string {
	return "selfplay: " + e.Path + ": " + strings.TrimPrefix(e.Err.Error(), "selfplay: ")
}
func (e *FileError) Unwrap() error { return e.Err }

// writeState commits a generation.
func (d *RunDir) writeState(st state) error { return d.writeJSON(stateFile, st) }

// initState writes the state of a new run (generation 0) unless the run
// has one: a run has a state.json from its creation on (see readState).
func (d *RunDir) initState() error {
	if _, err := d.readFile(stateFile); !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return d.writeState(state{})
}

func (d *RunDir) writeJSON(key string, v any) error {
	b, err := runfiles.EncodeJSON(v)
	if err != nil {
		return err
	}
	return d.writeFile(key, b)
}

// Metrics returns the metrics of the generations so far (none for a new
// run).
func (d *RunDir) Metrics() ([]Metrics, error) {
	if d.store == nil {
		return ReadMetrics(d.path(metricsFile))
	}
	b, err := d.readFile(metricsFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	m, err := ParseMetrics(b)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, d.name(metricsFile))
	}
	return m, nil
}

// resumeMetrics returns the metrics of generations 1..gen, for a run
// resuming after generation gen; when metrics.csv lacks some of them
// (deleted, or cut short) it warns through logf, naming the generations
// whose history is lost, and the run goes on.
func (d *RunDir) resumeMetrics(gen int, logf func(string, ...any)) ([]Metrics, error) {
	all, err := d.Metrics()
	if err != nil {
		return nil, err
	}
	all = all[:min(len(all), gen)]
	if n := len(all); n < gen {
		lost := fmt.Sprintf("generation %d", gen)
		if n+1 < gen {
			lost = fmt.Sprintf("generations %d to %d", n+1, gen)
		}
		logf("warning: %s holds the metrics of %d of the %d generations done: those of %s are lost", d.name(metricsFile), n, gen, lost)
	}
	return all, nil
}

// writeMetrics rewrites the metrics with all generations so far.
func (d *RunDir) writeMetrics(all []Metrics) error {
	return d.writeWith(metricsFile, func(path string) error { return writeMetrics(path, all) })
}

// writePlot redraws the plot of the metrics.
func (d *RunDir) writePlot(all []Metrics) error {
	return d.writeWith(plotFile, func(path string) error { return plotMetrics(path, all) })
}

// readShard reads the samples of generation gen; a shard that says it
// is of another generation or run is refused.
func (d *RunDir) readShard(gen, size int) ([]net.Sample, error) {
	return d.readRunShard(replayDir+"/"+shardName(gen), size, gen)
}

// readRunShard reads the shard at key, which must say that it holds
// generation gen of this run (or nothing: version 1).
func (d *RunDir) readRunShard(key string, size, gen int) ([]net.Sample, error) {
	var b []byte
	var err error
	if d.store != nil {
		b, err = d.readFile(key)
	} else {
		b, err = readShardFile(d.path(key))
	}
	if err != nil {
		return nil, err
	}
	return decodeRunShard(d.name(key), b, size, gen, d.run)
}

// writeShard writes the samples of generation gen.
func (d *RunDir) writeShard(gen, size int, samples []net.Sample) error {
	return d.writeWith(replayDir+"/"+shardName(gen), func(path string) error { return d.writeRunShard(path, size, gen, samples) })
}

// writeRunShard writes samples of generation gen of this run at path,
// atomically, saying so in the shard.
func (d *RunDir) writeRunShard(path string, size, gen int, samples []net.Sample) error {
	return atomicfile.Write(path, 0o644, func(w io.Writer) error {
		return encodeShard(w, size, &shardTag{gen: gen, run: d.run}, samples)
	})
}

// genDir is the folder of generation gen under replay/ and games/.
func genDir(gen int) string { return runfiles.GenDir(gen) }

func gameName(i int) string { return runfiles.GameName(i) }

// makeGameDirs makes the folders of generation gen's games.
func (d *RunDir) makeGameDirs(gen int) error {
	for _, dir := range []string{d.path(replayDir, genDir(gen)), d.path(gamesDir, genDir(gen))} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("selfplay: %w", err)
		}
	}
	return nil
}

// writeGame saves game i of generation gen as it finishes: its record,
// then its samples until the generation's games are merged.
func (d *RunDir) writeGame(gen, i, size int, rec *rules.Record, samples []net.Sample) error {
	data, err := rec.MarshalText()
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(d.path(gamesDir, genDir(gen), gameName(i)+".txt"), data, 0o644); err != nil {
		return err
	}
	return d.writeRunShard(d.path(replayDir, genDir(gen), gameName(i)+".shard"), size, gen, samples)
}

// readGameRecord reads the record of game i of generation gen.
func (d *RunDir) readGameRecord(gen, i int) (*rules.Record, error) {
	return rules.ReadRecordFile(d.path(gamesDir, genDir(gen), gameName(i)+".txt"))
}

// readGameSamples reads the samples of game i of generation gen, saved
// until the generation's games are merged.
func (d *RunDir) readGameSamples(gen, i, size int) ([]net.Sample, error) {
	return d.readRunShard(replayDir+"/"+genDir(gen)+"/"+gameName(i)+".shard", size, gen)
}

// removeGameSamples drops the per-game samples of generation gen, once
// merged into its shard.
func (d *RunDir) removeGameSamples(gen int) error {
	return os.RemoveAll(d.path(replayDir, genDir(gen)))
}

// ModelName is the file name of the model exported after generation gen.
func ModelName(gen int) string { return runfiles.ModelName(gen) }

// generationOf is the generation of a model named by ModelName.
func generationOf(name string) int { return runfiles.GenerationOf(name) }

func checkpointName(gen int) string { return runfiles.CheckpointName(gen) }

// saveModel exports the model of generation gen and makes it the latest.
func (d *RunDir) saveModel(gen int, m *net.Model) error {
	if err := m.Save(d.path(modelsDir, ModelName(gen))); err != nil {
		return err
	}
	return atomicfile.WriteFile(d.path(modelsDir, latestFile), []byte(ModelName(gen)+"\n"), 0o644)
}

// publishModel exports the model of generation gen to a store,
// create-only, and returns its sha256; it does not make it the latest
// (point does). A model of that generation left by a trainer that crashed
// before its commit (or lost its lease) is replaced, since nothing points
// to it; the model of a committed generation (1..committed) is never
// replaced by another: the error says so. check runs just before the
// write (the lease's).
func (d *RunDir) publishModel(gen, committed int, m *net.Model, check func() error) (sum string, err error) {
	path := filepath.Join(d.stage, "model")
	if err := m.Save(path); err != nil {
		return "", err
	}
	defer os.Remove(path)
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("selfplay: %w", err)
	}
	if err := check(); err != nil {
		return "", err
	}
	key := modelsDir + "/" + ModelName(gen)
	err = d.store.Create(d.ctx, key, data)
	if errors.Is(err, runstore.ErrExist) {
		if old, rerr := d.store.Read(d.ctx, key); rerr == nil && bytes.Equal(old, data) {
			return runstore.SHA256(data), nil
		}
		if gen >= 1 && gen <= committed {
			return "", &FileError{Path: d.name(key), Err: fmt.Errorf("generation %d is committed with other weights; a committed model is never replaced", gen)}
		}
		err = d.store.Put(d.ctx, key, data)
	}
	return runstore.SHA256(data), err
}

// point makes the model of generation gen the latest in a store:
// models/latest, then models/latest.json for the workers, which also
// says how many games the trainer wants per generation.
func (d *RunDir) point(gen, gamesPerGen int) error {
	key := modelsDir + "/" + ModelName(gen)
	data, err := d.store.Read(d.ctx, key)
	if err != nil {
		return err
	}
	if err := d.store.Put(d.ctx, modelsDir+"/"+latestFile, []byte(ModelName(gen)+"\n")); err != nil {
		return err
	}
	return d.store.WriteLatest(d.ctx, runstore.Latest{Generation: gen, Model: key, SHA256: runstore.SHA256(data),
		GamesPerGen: gamesPerGen, Window: AcceptWindow})
}

// AcceptWindow is how many model generations back a trainer fed by
// workers accepts games from: games of the newest model and of the one
// before it, which workers were still finishing when the newest appeared.
const AcceptWindow = 2

// workerShardKey is the key of a game of model gen uploaded by a worker.
func workerShardKey(gen int, sum string) string { return runfiles.WorkerShardKey(gen, sum) }

// workerShardPrefix is the common prefix of the keys of model gen's games.
func workerShardPrefix(gen int) string { return runfiles.WorkerShardPrefix(gen) }

// parseWorkerShardKey returns the generation and hash of a worker shard key.
func parseWorkerShardKey(key string) (gen int, sum string, ok bool) {
	return runfiles.ParseWorkerShardKey(key)
}

// spoolName names a game in a worker's spool: gen-NNNNNN-<sha256>.shard.
func spoolName(gen int, sum string) string { return runfiles.SpoolName(gen, sum) }

// parseSpoolName returns the store key of a game in a worker's spool.
func parseSpoolName(name string) (key string, ok bool) { return runfiles.ParseSpoolName(name) }

// workerShards lists the keys of the games that workers uploaded for
// model gen, in key order.
func (d *RunDir) workerShards(gen int) ([]string, error) {
	objs, err := d.store.List(d.ctx, workerShardPrefix(gen))
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, o := range objs {
		if _, _, ok := parseWorkerShardKey(o.Key); ok {
			keys = append(keys, o.Key)
		}
	}
	return keys, nil
}

// readWorkerShard reads an uploaded game, checking that its content is
// what its name hashes.
func (d *RunDir) readWorkerShard(key string, size int) ([]net.Sample, error) {
	b, err := d.readFile(key)
	if err != nil {
		return nil, err
	}
	gen, sum, _ := parseWorkerShardKey(key)
	samples, err := decodeRunShard(key, b, size, gen, d.run)
	if err != nil {
		return nil, err
	}
	if runstore.SHA256(b) != sum {
		return nil, fmt.Errorf("selfplay: %s: content hash %s does not match its name", key, runstore.SHA256(b))
	}
	return samples, nil
}

// writeKeys records the worker shards that generation gen trained on.
func (d *RunDir) writeKeys(gen int, keys []string) error {
	return d.writeFile(replayDir+"/"+keysName(gen), []byte(strings.Join(keys, "\n")+"\n"))
}

func keysName(g int) string { return runfiles.KeysName(g) }

// Generations lists the generations that have an exported model, in
// order.
func (d *RunDir) Generations() ([]int, error) {
	entries, err := os.ReadDir(d.path(modelsDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	var gens []int
	for _, e := range entries {
		if g := generationOf(e.Name()); g > 0 && e.Name() == ModelName(g) {
			gens = append(gens, g)
		}
	}
	sort.Ints(gens)
	return gens, nil
}

// LoadModel reads the model exported after generation gen.
func (d *RunDir) LoadModel(gen int) (*net.Model, error) { return d.loadModel(ModelName(gen)) }

// loadModel reads the model of that name (ModelName).
func (d *RunDir) loadModel(name string) (*net.Model, error) {
	return net.Load(d.path(modelsDir, name))
}

// LatestModel returns the path of the newest model.
func (d *RunDir) LatestModel() (string, error) {
	b, err := os.ReadFile(d.path(modelsDir, latestFile))
	if err != nil {
		return "", fmt.Errorf("selfplay: run %s has no exported model yet: %w", d.root, err)
	}
	return d.path(modelsDir, strings.TrimSpace(string(b))), nil
}

// LatestModel returns the path of the newest model of the run directory
// dir.
func LatestModel(dir string) (string, error) { return NewRunDir(dir).LatestModel() }

// saveCheckpoint saves the trainer after generation gen and returns the
// sha256 of the checkpoint, which the commit records (see loadCheckpoint).
func (d *RunDir) saveCheckpoint(gen int, t *net.Trainer) (sum string, err error) {
	err = d.writeWith(ckptDir+"/"+checkpointName(gen), func(path string) error {
		if err := t.SaveCheckpoint(path); err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("selfplay: %w", err)
		}
		sum = runstore.SHA256(b)
		return nil
	})
	return sum, err
}

// loadCheckpoint restores the trainer from the checkpoint that st
// commits; one whose sha256 is not the one st recorded (a checkpoint of
// another generation or run copied over it) is refused.
func (d *RunDir) loadCheckpoint(st state, t *net.Trainer) error {
	err := d.readWith(ckptDir+"/"+st.Checkpoint, func(path string) error {
		if st.CheckpointSHA256 != "" {
			b, err := os.ReadFile(path)
			if err != nil {
				return fmt.Errorf("selfplay: %w", err)
			}
			if sum := runstore.SHA256(b); sum != st.CheckpointSHA256 {
				return &FileError{Path: d.name(ckptDir + "/" + st.Checkpoint),
					Err: fmt.Errorf("sha256 %s, but %s records %s: not the checkpoint of generation %d", sum, stateFile, st.CheckpointSHA256, st.Generation)}
			}
		}
		return t.LoadCheckpoint(path)
	})
	if me, ok := errors.AsType[*net.MismatchError](err); ok {
		// The checkpoint is what the run trained; config.json is what changed.
		return &FileError{Path: d.name(configFile), Err: fmt.Errorf("net: a %dx%d %s network, but the run trained a %dx%d %s (checkpoint %s): put net back as it was, or start a new run",
			me.Trainer.Size, me.Trainer.Size, me.Trainer.Arch(), me.Checkpoint.Size, me.Checkpoint.Size, me.Checkpoint.Arch(), st.Checkpoint)}
	}
	if err != nil {
		return fmt.Errorf("selfplay: resuming %s: %w", d.root, err)
	}
	return nil
}

// removeOldCheckpoints keeps the checkpoints of generations gen and gen-1.
func (d *RunDir) removeOldCheckpoints(gen int) {
	if d.store != nil {
		if gen > 2 {
			d.store.Delete(d.ctx, ckptDir+"/"+checkpointName(gen-2))
		}
		return
	}
	names, _ := filepath.Glob(d.path(ckptDir, "gen-*.ckpt"))
	sort.Strings(names)
	keep := map[string]bool{checkpointName(gen): true, checkpointName(gen - 1): true}
	for _, n := range names {
		if !keep[filepath.Base(n)] {
			os.Remove(n)
		}
	}
}
