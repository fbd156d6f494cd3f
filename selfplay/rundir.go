package selfplay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/internal/lockfile"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/runfiles"
	"github.com/konanezero/konane/runstore"
)

// RunDir is a training run's files: the one place that knows their
// layout, through which every read and write of a run goes. Underneath is
// always a runstore.Store: a local directory (file://, OpenRunDir, the
// trainer that plays its own games) or a directory or bucket shared with
// self-play workers (OpenStoreRunDir, the trainer fed by workers). The
// names and formats of its files are package runfiles'. Every write is
// atomic and, on file://, durable (temporary file, fsync, rename or link,
// folder fsync: see runstore); the temporary files of a writer that was
// killed are removed by OpenRunDir, and skipped by the store's listings. A
// run has its state.json from its creation on.
type RunDir struct {
	root  string
	lock  *lockfile.Lock // the local trainer's, from OpenRunDir until Close
	run   uint64         // the run's identity (its seed), known once its configuration is
	ctx   context.Context
	owned bool // the store was opened here, and Close closes it

	once    sync.Once
	store   *runstore.Store // opened on first use by a RunDir of NewRunDir
	openErr error
}

// NewRunDir returns the run directory root without touching it (to ask
// HasRun, or to read its models): a missing directory holds no run.
func NewRunDir(root string) *RunDir {
	return &RunDir{root: root, ctx: context.Background(), owned: true}
}

// OpenStoreRunDir returns the run in store, for a trainer fed by workers
// (TrainFromWorkers), which holds the store's lease. ctx bounds every
// operation on the store.
func OpenStoreRunDir(ctx context.Context, store *runstore.Store) (*RunDir, error) {
	d := &RunDir{root: store.Location(), ctx: ctx}
	d.once.Do(func() { d.store = store })
	return d, nil
}

// OpenRunDir makes the folders of a run directory, if missing, takes the
// trainer's exclusive lock on it, and removes the temporary files that a
// killed writer left behind (the files they were meant to replace are
// intact), ready for a trainer; Close releases the lock. One trainer at a
// time: if another process (or another OpenRunDir in this one) holds the
// lock, the error is a *LockedError. The lock is an flock on DIR/lock
// (internal/lockfile), which the kernel drops when its process dies, even
// by kill -9, so it is never stale. The directory is a file:// store:
// writes that do not finish (cancelling the run's context) never leave a
// file half-written.
func OpenRunDir(root string) (*RunDir, error) {
	for _, sub := range []string{"", runfiles.ReplayDir, runfiles.GamesDir, runfiles.ModelsDir, runfiles.CheckpointsDir} {
		if err := os.MkdirAll(filepath.Join(root, sub), 0o755); err != nil {
			return nil, fmt.Errorf("selfplay: %w", err)
		}
	}
	d := NewRunDir(root)
	lock, err := lockfile.Acquire(filepath.Join(root, runfiles.LockFile))
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
	if _, err := d.objects(); err != nil {
		lock.Release()
		return nil, err
	}
	return d, nil
}

// objects is the run's store, opened on first use for a RunDir of
// NewRunDir; a local directory that does not exist is not created (the
// error wraps fs.ErrNotExist).
func (d *RunDir) objects() (*runstore.Store, error) {
	d.once.Do(func() {
		if !strings.Contains(d.root, "://") {
			if _, err := os.Stat(d.root); err != nil {
				d.openErr = fmt.Errorf("selfplay: %w", err)
				return
			}
		}
		d.store, d.openErr = runstore.Open(d.ctx, d.root)
	})
	return d.store, d.openErr
}

// Close releases the trainer's lock taken by OpenRunDir, and the store
// that the RunDir opened.
func (d *RunDir) Close() error {
	var err error
	if s, _ := d.objects(); s != nil && d.owned {
		err = s.Close()
	}
	if d.lock != nil {
		err = errors.Join(d.lock.Release(), err)
	}
	return err
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

// name is how errors name a file of the run: its path, or its key in the
// store.
func (d *RunDir) name(key string) string {
	if s, _ := d.objects(); s != nil {
		return s.Name(key)
	}
	return filepath.Join(d.root, filepath.FromSlash(key))
}

// The primitives through which the methods below read and write the
// objects of a run, by key (a slash-separated name under the run).

// readFile returns a file's content; the error wraps fs.ErrNotExist when
// it is missing.
func (d *RunDir) readFile(key string) ([]byte, error) {
	s, err := d.objects()
	if err != nil {
		return nil, err
	}
	b, err := s.Read(d.ctx, key)
	if errors.Is(err, runstore.ErrNotExist) {
		err = fmt.Errorf("%w (%w)", err, fs.ErrNotExist)
	}
	return b, err
}

// writeFile replaces a file, atomically.
func (d *RunDir) writeFile(key string, data []byte) error {
	s, err := d.objects()
	if err != nil {
		return err
	}
	return s.Put(d.ctx, key, data)
}

// createFile writes a file that does not exist yet; the error wraps
// runstore.ErrExist when it does.
func (d *RunDir) createFile(key string, data []byte) error {
	s, err := d.objects()
	if err != nil {
		return err
	}
	return s.Create(d.ctx, key, data)
}

// list returns the keys under prefix, in order (none in a directory that
// does not exist).
func (d *RunDir) list(prefix string) ([]string, error) {
	s, err := d.objects()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	objs, err := s.List(d.ctx, prefix)
	if err != nil {
		return nil, err
	}
	keys := make([]string, len(objs))
	for i, o := range objs {
		keys[i] = o.Key
	}
	return keys, nil
}

// remove deletes a file; a missing one is not an error.
func (d *RunDir) remove(key string) error {
	s, err := d.objects()
	if err != nil {
		return err
	}
	return s.Delete(d.ctx, key)
}

// removeAll deletes the files of a folder, and the folder.
func (d *RunDir) removeAll(folder string) error {
	s, err := d.objects()
	if err != nil {
		return err
	}
	return s.DeleteAll(d.ctx, folder)
}

// HasRun reports whether the directory holds a run (its configuration).
func (d *RunDir) HasRun() bool {
	_, err := d.readFile(runfiles.ConfigFile)
	return err == nil
}

// ReadConfig reads the run's configuration; its error wraps
// fs.ErrNotExist when the directory holds no run, and is a *FileError
// when the file is not a valid configuration (see parseConfig).
func (d *RunDir) ReadConfig() (Config, error) {
	path := d.name(runfiles.ConfigFile)
	b, err := d.readFile(runfiles.ConfigFile)
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
// generation was complete still starts from it. A new run gets its
// identity here (Config.RunID) unless cfg has one; a resumed run keeps
// the saved one.
func (d *RunDir) checkOrWriteConfig(cfg Config) (Config, error) {
	path := d.name(runfiles.ConfigFile)
	saved, err := d.ReadConfig()
	if errors.Is(err, fs.ErrNotExist) {
		what, err := d.runFile()
		if err != nil {
			return cfg, err
		}
		if what != "" {
			return cfg, &FileError{Path: path, Err: fmt.Errorf("missing, but the directory holds a run (%s); restore it or train in another directory", what)}
		}
		if cfg.RunID == "" {
			cfg.RunID = runfiles.NewRunID()
		}
		d.run = cfg.Seed
		return cfg, d.writeJSON(runfiles.ConfigFile, cfg)
	}
	if err != nil {
		return cfg, err
	}
	if diff := configDiff(saved.identity(), cfg.identity()); diff != "" {
		return cfg, fmt.Errorf("selfplay: %s holds a run with a different configuration (%s); use the same settings or another --run directory", d.root, diff)
	}
	switch {
	case saved.Games != "" && cfg.Games != "" && saved.Games != cfg.Games:
		return cfg, &ModeError{Dir: d.root, Saved: saved.Games}
	case cfg.Games == "" || saved.Games == "":
		cfg.Games = saved.Games // a run made before the mode was recorded keeps none
	}
	switch {
	case cfg.RunID == "" || saved.RunID == "":
		cfg.RunID = saved.RunID // a run made before runs had an identity keeps none
	case cfg.RunID != saved.RunID:
		return cfg, fmt.Errorf("selfplay: %s holds run %s, not %s", d.root, saved.RunID, cfg.RunID)
	}
	switch {
	case cfg.Init == "":
		cfg.Init = saved.Init
	case saved.Init != "" && cfg.Init != saved.Init:
		return cfg, fmt.Errorf("selfplay: %s holds a run started from %s, not %s", d.root, saved.Init, cfg.Init)
	}
	d.run = cfg.Seed
	return cfg, d.writeJSON(runfiles.ConfigFile, cfg)
}

// runFile names a file of the run in the directory ("" if there is none):
// anything under the folders given, or, when none is given, its state,
// metrics, or anything under models, checkpoints, replay or games (the
// lease of a store is not the run's).
func (d *RunDir) runFile(folders ...string) (string, error) {
	names := []string{runfiles.StateFile, runfiles.MetricsFile}
	if len(folders) > 0 {
		names = nil
	} else {
		folders = []string{runfiles.ModelsDir, runfiles.CheckpointsDir, runfiles.ReplayDir, runfiles.GamesDir}
	}
	prefixes := slices.Clone(names)
	for _, f := range folders {
		prefixes = append(prefixes, runfiles.Prefix(f))
	}
	for _, prefix := range prefixes {
		keys, err := d.list(prefix)
		if err != nil {
			return "", err
		}
		if len(keys) > 0 {
			return keys[0], nil
		}
	}
	return "", nil
}

// parseConfig reads a saved configuration: one JSON object with no field
// unknown to Config, and valid (Config.Validate).
func parseConfig(b []byte) (Config, error) {
	var c Config
	if err := runfiles.DecodeObject(b, &c); err != nil {
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
func (d *RunDir) readState() (runfiles.State, error) {
	path := d.name(runfiles.StateFile)
	b, err := d.readFile(runfiles.StateFile)
	if errors.Is(err, fs.ErrNotExist) {
		what, err := d.runFile(runfiles.ModelsDir, runfiles.CheckpointsDir, runfiles.ReplayDir)
		if err != nil {
			return runfiles.State{}, err
		}
		if what != "" && d.HasRun() { // without config.json, checkOrWriteConfig names that first
			return runfiles.State{}, &FileError{Path: path, Err: fmt.Errorf("missing, but the directory holds a run (%s); restore it or train in another directory", what)}
		}
		return runfiles.State{}, nil
	}
	if err != nil {
		return runfiles.State{}, err
	}
	st, err := runfiles.ParseState(b)
	if err != nil {
		return runfiles.State{}, &FileError{Path: path, Err: err}
	}
	return st, nil
}

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
func (d *RunDir) writeState(st runfiles.State) error { return d.writeJSON(runfiles.StateFile, st) }

// initState writes the state of a new run (generation 0) of identity
// runID unless the run has one: a run has a state.json from its creation
// on (see readState).
func (d *RunDir) initState(runID string) error {
	if _, err := d.readFile(runfiles.StateFile); !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return d.writeState(runfiles.State{RunID: runID})
}

// checkRunID refuses a state.json of another run than the configuration's
// (when both record an identity).
func (d *RunDir) checkRunID(st runfiles.State, cfg Config) error {
	if st.RunID != "" && cfg.RunID != "" && st.RunID != cfg.RunID {
		return &FileError{Path: d.name(runfiles.StateFile), Err: fmt.Errorf("of run %s, but %s is of run %s: the files of two runs are mixed", st.RunID, runfiles.ConfigFile, cfg.RunID)}
	}
	return nil
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
func (d *RunDir) Metrics() ([]runfiles.Metrics, error) {
	b, err := d.readFile(runfiles.MetricsFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	m, err := runfiles.ParseMetrics(b)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, d.name(runfiles.MetricsFile))
	}
	return m, nil
}

// resumeMetrics returns the metrics of generations 1..gen in generation
// order, for a run resuming after generation gen; when metrics.csv lacks
// some of them (deleted, or cut short) it warns through logf, naming the
// generations whose history is lost, and the run goes on.
func (d *RunDir) resumeMetrics(gen int, logf func(string, ...any)) ([]runfiles.Metrics, error) {
	rows, err := d.Metrics()
	if err != nil {
		return nil, err
	}
	byGen := make([]*runfiles.Metrics, gen+1)
	for i := range rows {
		if g := rows[i].Generation; g >= 1 && g <= gen && byGen[g] == nil {
			byGen[g] = &rows[i]
		}
	}
	var all []runfiles.Metrics
	var lost []string // ranges of generations without a row
	for g := 1; g <= gen; g++ {
		if byGen[g] != nil {
			all = append(all, *byGen[g])
			continue
		}
		end := g
		for end < gen && byGen[end+1] == nil {
			end++
		}
		if end == g {
			lost = append(lost, strconv.Itoa(g))
		} else {
			lost = append(lost, fmt.Sprintf("%d to %d", g, end))
		}
		g = end
	}
	if len(lost) > 0 {
		what := "generation " + lost[0]
		if len(lost) > 1 || strings.Contains(lost[0], " to ") {
			what = "generations " + strings.Join(lost, ", ")
		}
		logf("warning: %s holds the metrics of %d of the %d generations done: those of %s are lost", d.name(runfiles.MetricsFile), len(all), gen, what)
	}
	return all, nil
}

// writeMetrics rewrites the metrics with all generations so far.
func (d *RunDir) writeMetrics(all []runfiles.Metrics) error {
	return d.writeFile(runfiles.MetricsFile, runfiles.EncodeMetrics(all))
}

// writePlot redraws the plot of the metrics.
func (d *RunDir) writePlot(all []runfiles.Metrics) error {
	var b bytes.Buffer
	if err := plotMetrics(&b, all); err != nil {
		return err
	}
	return d.writeFile(runfiles.PlotFile, b.Bytes())
}

// readShard reads the samples of generation gen and returns them with
// the shard's sha256; a shard that says it is of another generation or
// run is refused, and so is one whose sha256 is not want (unless want is
// "": not recorded), which state.json recorded when the generation was
// committed.
func (d *RunDir) readShard(gen, size int, want string) (samples []net.Sample, sum string, err error) {
	key := runfiles.ShardKey(gen)
	b, err := d.readFile(key)
	if err != nil {
		return nil, "", err
	}
	sum = runstore.SHA256(b)
	if want != "" && sum != want {
		return nil, "", &FileError{Path: d.name(key), Err: fmt.Errorf("sha256 %.12s…, but %s recorded %.12s… when generation %d was committed: the shard was replaced; restore it", sum, runfiles.StateFile, want, gen)}
	}
	samples, err = decodeRunShard(d.name(key), b, size, gen, d.run)
	return samples, sum, err
}

// readRunShard reads the shard at key, which must say that it holds
// generation gen of this run (or nothing: version 1).
func (d *RunDir) readRunShard(key string, size, gen int) ([]net.Sample, error) {
	b, err := d.readFile(key)
	if err != nil {
		return nil, err
	}
	return decodeRunShard(d.name(key), b, size, gen, d.run)
}

// writeShard writes the samples of generation gen and returns the
// shard's sha256, which the generation's commit records.
func (d *RunDir) writeShard(gen, size int, samples []net.Sample) (sum string, err error) {
	return d.writeRunShard(runfiles.ShardKey(gen), size, gen, samples)
}

// writeRunShard writes samples of generation gen of this run at key,
// saying so in the shard, and returns its sha256.
func (d *RunDir) writeRunShard(key string, size, gen int, samples []net.Sample) (sum string, err error) {
	var b bytes.Buffer
	if err := encodeShard(&b, size, &shardTag{gen: gen, run: d.run}, samples); err != nil {
		return "", err
	}
	return runstore.SHA256(b.Bytes()), d.writeFile(key, b.Bytes())
}

// writeGame saves game i of generation gen as it finishes: its record,
// then its samples until the generation's games are merged.
func (d *RunDir) writeGame(gen, i, size int, rec *rules.Record, samples []net.Sample) error {
	data, err := rec.MarshalText()
	if err != nil {
		return err
	}
	if err := d.writeFile(runfiles.GameRecordKey(gen, i), data); err != nil {
		return err
	}
	_, err = d.writeRunShard(runfiles.GameShardKey(gen, i), size, gen, samples)
	return err
}

// readGameRecord reads the record of game i of generation gen.
func (d *RunDir) readGameRecord(gen, i int) (*rules.Record, error) {
	key := runfiles.GameRecordKey(gen, i)
	data, err := d.readFile(key)
	if err != nil {
		return nil, err
	}
	rec, err := rules.ParseRecord(data)
	if err != nil {
		return nil, &FileError{Path: d.name(key), Err: err}
	}
	return rec, nil
}

// readGameSamples reads the samples of game i of generation gen, saved
// until the generation's games are merged.
func (d *RunDir) readGameSamples(gen, i, size int) ([]net.Sample, error) {
	return d.readRunShard(runfiles.GameShardKey(gen, i), size, gen)
}

// removeGameSamples drops the per-game samples of generation gen, once
// merged into its shard.
func (d *RunDir) removeGameSamples(gen int) error {
	return d.removeAll(runfiles.GenReplayDir(gen))
}

// publishModel exports the model of generation gen, create-only, and
// returns its sha256; it does not make it the latest (point does). A
// model of that generation left by a trainer that crashed before its
// commit (or lost its lease) is replaced, since nothing points to it;
// the model of a committed generation (1..committed) is never replaced
// by another: the error says so. check runs just before the write (the
// lease's, for a trainer fed by workers).
func (d *RunDir) publishModel(gen, committed int, m *net.Model, check func() error) (sum string, err error) {
	data, err := m.MarshalBinary()
	if err != nil {
		return "", err
	}
	if err := check(); err != nil {
		return "", err
	}
	key := runfiles.ModelKey(gen)
	err = d.createFile(key, data)
	if errors.Is(err, runstore.ErrExist) {
		if old, rerr := d.readFile(key); rerr == nil && bytes.Equal(old, data) {
			return runstore.SHA256(data), nil
		}
		if gen >= 1 && gen <= committed {
			return "", &FileError{Path: d.name(key), Err: fmt.Errorf("generation %d is committed with other weights; a committed model is never replaced", gen)}
		}
		err = d.writeFile(key, data)
	}
	return runstore.SHA256(data), err
}

// checkModel checks that the model of the committed generation, and the
// best model when gating, are those state.json recorded (when it
// recorded them): a model replaced under models/ would otherwise stay
// behind the pointers that the run rewrites on resuming, or play the
// run's games.
func (d *RunDir) checkModel(st runfiles.State) error {
	if st.Generation == 0 {
		return nil
	}
	if err := d.checkModelSum(runfiles.ModelKey(st.Generation), st.ModelSHA256); err != nil {
		return err
	}
	return d.checkModelSum(runfiles.ModelFileKey(st.Best), st.BestSHA256)
}

// checkModelSum refuses the model at key unless its sha256 is want (not
// checked when want is "": not recorded).
func (d *RunDir) checkModelSum(key, want string) error {
	if want == "" {
		return nil
	}
	data, err := d.readFile(key)
	if err != nil {
		return &FileError{Path: d.name(key), Err: err}
	}
	if sum := runstore.SHA256(data); sum != want {
		return &FileError{Path: d.name(key), Err: fmt.Errorf("sha256 %.12s…, but %s recorded %.12s… when it was committed: the model was replaced; restore it", sum, runfiles.StateFile, want)}
	}
	return nil
}

// point makes the model of generation gen the latest: models/latest.
func (d *RunDir) point(gen int) error {
	return d.writeFile(runfiles.LatestModelKey, []byte(runfiles.ModelName(gen)+"\n"))
}

// pointWorkers makes the model of generation gen the one that workers
// play, models/latest.json, which also says how many games the trainer
// wants per generation.
func (d *RunDir) pointWorkers(gen, gamesPerGen int) error {
	key := runfiles.ModelKey(gen)
	data, err := d.readFile(key)
	if err != nil {
		return err
	}
	l := runfiles.Latest{Generation: gen, Model: key, SHA256: runstore.SHA256(data), GamesPerGen: gamesPerGen, Window: AcceptWindow}
	b, err := l.Encode()
	if err != nil {
		return err
	}
	return d.writeFile(runfiles.LatestKey, b)
}

// AcceptWindow is how many model generations back a trainer fed by
// workers accepts games from: games of the newest model and of the two
// before it, which workers were still finishing, or uploading from a
// spool after a restart, when newer ones appeared. Runs made when it
// was 2 resume safely: the games already trained on are read from the
// .keys files of the generations that could have taken them (see
// workerGames.trained), not only from state.json, which keeps those of
// the window's models.
const AcceptWindow = 3

// staleTemp is the age beyond which a temporary file in the store is a
// killed writer's: a worker's upload takes seconds.
const staleTemp = 10 * time.Minute

// removeStale removes the temporary files that killed workers left in
// the games folders (file:// only): without it they stayed until the
// next OpenRunDir, that is the trainer's restart.
func (d *RunDir) removeStale() {
	if s, err := d.objects(); err == nil {
		s.RemoveStale(runfiles.ReplayDir+"/", time.Now().Add(-staleTemp))
	}
}

// quarantine moves key, a worker's game that the trainer refused, to
// quarantine/KEY, out of the folder whose games the trainer and the
// workers count: left there, enough broken objects would make the
// workers wait for a generation that the trainer still lacks.
func (d *RunDir) quarantine(key string) error {
	b, err := d.readFile(key)
	if err == nil {
		err = d.writeFile(runfiles.QuarantineDir+"/"+key, b)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return d.remove(key)
}

// workerShards lists the keys of the games that workers uploaded for
// model gen, in key order.
func (d *RunDir) workerShards(gen int) ([]string, error) {
	listed, err := d.list(runfiles.WorkerShardPrefix(gen))
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, k := range listed {
		if _, _, ok := runfiles.ParseWorkerShardKey(k); ok {
			keys = append(keys, k)
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
	gen, sum, _ := runfiles.ParseWorkerShardKey(key)
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
	return d.writeFile(runfiles.KeysKey(gen), []byte(strings.Join(keys, "\n")+"\n"))
}

// readKeys returns the worker shards that generation gen trained on.
func (d *RunDir) readKeys(gen int) ([]string, error) {
	b, err := d.readFile(runfiles.KeysKey(gen))
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(b)), nil
}

// Generations lists the generations that have an exported model, in
// order.
func (d *RunDir) Generations() ([]int, error) {
	keys, err := d.list(runfiles.Prefix(runfiles.ModelsDir))
	if err != nil {
		return nil, err
	}
	var gens []int
	for _, k := range keys {
		if g, ok := runfiles.ParseModelKey(k); ok {
			gens = append(gens, g)
		}
	}
	sort.Ints(gens)
	return gens, nil
}

// LoadModel reads the model exported after generation gen.
func (d *RunDir) LoadModel(gen int) (*net.Model, error) { return d.loadModel(runfiles.ModelName(gen)) }

// loadModel reads the model of that name (ModelName), with the checks of
// net.Load.
func (d *RunDir) loadModel(name string) (*net.Model, error) {
	key := runfiles.ModelFileKey(name)
	data, err := d.readFile(key)
	if err != nil {
		return nil, err
	}
	m, err := net.Decode(data)
	if err == nil {
		err = m.Check()
	}
	if err != nil {
		return nil, &FileError{Path: d.name(key), Err: err}
	}
	return m, nil
}

// LatestModel returns the path of the newest model (its key in the store
// for a bucket).
func (d *RunDir) LatestModel() (string, error) {
	b, err := d.readFile(runfiles.LatestModelKey)
	if err != nil {
		return "", fmt.Errorf("selfplay: run %s has no exported model yet: %w", d.root, err)
	}
	return d.name(runfiles.ModelFileKey(strings.TrimSpace(string(b)))), nil
}

// LatestModel returns the path of the newest model of the run directory
// dir.
func LatestModel(dir string) (string, error) { return NewRunDir(dir).LatestModel() }

// saveCheckpoint saves the trainer after generation gen and returns the
// sha256 of the checkpoint, which the commit records (see loadCheckpoint).
func (d *RunDir) saveCheckpoint(gen int, t Trainer) (sum string, err error) {
	data, err := t.MarshalCheckpoint()
	if err != nil {
		return "", err
	}
	if err := d.writeFile(runfiles.CheckpointKey(gen), data); err != nil {
		return "", err
	}
	return runstore.SHA256(data), nil
}

// loadCheckpoint restores the trainer from the checkpoint that st
// commits; one whose sha256 is not the one st recorded (a checkpoint of
// another generation or run copied over it) is refused.
func (d *RunDir) loadCheckpoint(st runfiles.State, t Trainer) error {
	key := runfiles.CheckpointFileKey(st.Checkpoint)
	data, err := d.readFile(key)
	if err == nil && st.CheckpointSHA256 != "" {
		if sum := runstore.SHA256(data); sum != st.CheckpointSHA256 {
			return &FileError{Path: d.name(key),
				Err: fmt.Errorf("sha256 %s, but %s records %s: not the checkpoint of generation %d", sum, runfiles.StateFile, st.CheckpointSHA256, st.Generation)}
		}
	}
	if err == nil {
		err = t.RestoreCheckpoint(data, d.name(key))
	}
	if me, ok := errors.AsType[*net.MismatchError](err); ok {
		// The checkpoint is what the run trained; config.json is what changed.
		return &FileError{Path: d.name(runfiles.ConfigFile), Err: fmt.Errorf("net: a %s %s network, but the run trained a %s %s (checkpoint %s): put net back as it was, or start a new run",
			me.Trainer.BoardName(), me.Trainer.Arch(), me.Checkpoint.BoardName(), me.Checkpoint.Arch(), st.Checkpoint)}
	}
	if err != nil {
		return fmt.Errorf("selfplay: resuming %s: %w", d.root, err)
	}
	return nil
}

// removeOldCheckpoints keeps the checkpoints of generations gen and gen-1.
func (d *RunDir) removeOldCheckpoints(gen int) {
	keys, _ := d.list(runfiles.Prefix(runfiles.CheckpointsDir))
	for _, k := range keys {
		if k != runfiles.CheckpointKey(gen) && k != runfiles.CheckpointKey(gen-1) {
			d.remove(k)
		}
	}
}
