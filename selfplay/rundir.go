package selfplay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/internal/lockfile"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
)

// RunDir is a training run's directory: the one place that knows its
// layout (the name of every file) and through which every read and write
// of a run goes, so that another storage could stand in for the file
// system under it. The layout:
//
//	lock                                 held by the trainer while it runs (OpenRunDir); holds its PID
//	config.json                          the run's configuration
//	state.json                           the last completed generation (written last: the commit point)
//	metrics.csv, metrics.png             one row per generation, and their plot
//	replay/gen-NNNNNN.shard              the samples of each generation
//	replay/gen-NNNNNN/game-NNNNN.shard   the finished games of a running generation, until merged
//	games/gen-NNNNNN/game-NNNNN.txt      every game as a text record, with search statistics as comments
//	models/gen-NNNNNN.safetensors        the model exported after each generation
//	models/latest                        the name of the newest model
//	checkpoints/gen-NNNNNN.ckpt          trainer state (weights, momentum, step) of the last two generations
//
// Files are written atomically (internal/atomicfile); the temporary
// files of a writer that was killed are removed by OpenRunDir.
type RunDir struct {
	root string
	lock *lockfile.Lock // the trainer's, from OpenRunDir until Close
}

// Files and folders of a run directory.
const (
	lockFile    = "lock"
	configFile  = "config.json"
	stateFile   = "state.json"
	metricsFile = "metrics.csv"
	plotFile    = "metrics.png"
	replayDir   = "replay"
	gamesDir    = "games"
	modelsDir   = "models"
	ckptDir     = "checkpoints"
	latestFile  = "latest"
)

// NewRunDir returns the run directory root without touching it (to ask
// HasRun, or to read its models).
func NewRunDir(root string) *RunDir { return &RunDir{root: root} }

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

// Close releases the trainer's lock taken by OpenRunDir.
func (d *RunDir) Close() error { return d.lock.Release() }

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

// HasRun reports whether the directory holds a run (its configuration).
func (d *RunDir) HasRun() bool {
	_, err := os.Stat(d.path(configFile))
	return err == nil
}

// ReadConfig reads the run's configuration; its error wraps
// fs.ErrNotExist when the directory holds no run, and is a *FileError
// when the file is not a valid configuration (see parseConfig).
func (d *RunDir) ReadConfig() (Config, error) {
	path := d.path(configFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("selfplay: %w", err)
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
	path := d.path(configFile)
	saved, err := d.ReadConfig()
	if errors.Is(err, fs.ErrNotExist) {
		if what := d.runFile(); what != "" {
			return cfg, &FileError{Path: path, Err: fmt.Errorf("missing, but the directory holds a run (%s); restore it or train in another directory", what)}
		}
		return cfg, writeJSON(path, cfg)
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
	return cfg, writeJSON(path, cfg)
}

// runFile names a file of the run in the directory ("" if there is none):
// its state, metrics, or anything under models, checkpoints, replay or
// games.
func (d *RunDir) runFile() string {
	for _, name := range []string{stateFile, metricsFile} {
		if _, err := os.Stat(d.path(name)); err == nil {
			return name
		}
	}
	for _, sub := range []string{modelsDir, ckptDir, replayDir, gamesDir} {
		if es, _ := os.ReadDir(d.path(sub)); len(es) > 0 {
			return sub + "/" + es[0].Name()
		}
	}
	return ""
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

// readState returns the run's commit point; the zero state for a new run.
func (d *RunDir) readState() (state, error) {
	path := d.path(stateFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return state{}, nil
	}
	if err != nil {
		return state{}, fmt.Errorf("selfplay: %w", err)
	}
	st, err := parseState(b)
	if err != nil {
		return state{}, &FileError{Path: path, Err: err}
	}
	return st, nil
}

// parseState reads a saved state: one JSON object with no unknown field,
// whose numbers and names agree (state.validate).
func parseState(b []byte) (state, error) {
	var st state
	if err := decodeObject(b, &st); err != nil {
		return state{}, fmt.Errorf("corrupt: %w", err)
	}
	if err := st.validate(); err != nil {
		return state{}, err
	}
	return st, nil
}

// decodeObject decodes b, which must hold exactly one JSON object (not
// null, nothing after it), into v, refusing fields that v does not have.
func decodeObject(b []byte, v any) error {
	if t := bytes.TrimLeft(b, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return errors.New("not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if err := dec.Decode(new(json.RawMessage)); err != io.EOF {
		return errors.New("data after the JSON object")
	}
	return nil
}

// FileError is a file of a run directory that cannot be used as it is:
// corrupt, out of bounds, or missing while the rest of the run is there.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string { return "selfplay: " + e.Path + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// writeState commits a generation.
func (d *RunDir) writeState(st state) error { return writeJSON(d.path(stateFile), st) }

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(b, '\n'), 0o644)
}

// Metrics returns the metrics of the generations so far (none for a new
// run).
func (d *RunDir) Metrics() ([]Metrics, error) { return ReadMetrics(d.path(metricsFile)) }

// writeMetrics rewrites the metrics with all generations so far, and
// their plot; a plot that fails is returned as plotErr, not err (the
// metrics themselves are saved).
func (d *RunDir) writeMetrics(all []Metrics) (plotErr, err error) {
	if err := writeMetrics(d.path(metricsFile), all); err != nil {
		return nil, err
	}
	return plotMetrics(d.path(plotFile), all), nil
}

// readShard reads the samples of generation gen.
func (d *RunDir) readShard(gen, size int) ([]net.Sample, error) {
	return ReadShard(d.path(replayDir, shardName(gen)), size)
}

// writeShard writes the samples of generation gen.
func (d *RunDir) writeShard(gen, size int, samples []net.Sample) error {
	return WriteShard(d.path(replayDir, shardName(gen)), size, samples)
}

// genDir is the folder of generation gen under replay/ and games/.
func genDir(gen int) string { return fmt.Sprintf("gen-%06d", gen) }

func gameName(i int) string { return fmt.Sprintf("game-%05d", i) }

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
	return WriteShard(d.path(replayDir, genDir(gen), gameName(i)+".shard"), size, samples)
}

// readGameRecord reads the record of game i of generation gen.
func (d *RunDir) readGameRecord(gen, i int) (*rules.Record, error) {
	return rules.ReadRecordFile(d.path(gamesDir, genDir(gen), gameName(i)+".txt"))
}

// readGameSamples reads the samples of game i of generation gen, saved
// until the generation's games are merged.
func (d *RunDir) readGameSamples(gen, i, size int) ([]net.Sample, error) {
	return ReadShard(d.path(replayDir, genDir(gen), gameName(i)+".shard"), size)
}

// removeGameSamples drops the per-game samples of generation gen, once
// merged into its shard.
func (d *RunDir) removeGameSamples(gen int) error {
	return os.RemoveAll(d.path(replayDir, genDir(gen)))
}

// ModelName is the file name of the model exported after generation gen.
func ModelName(gen int) string { return fmt.Sprintf("gen-%06d.safetensors", gen) }

// generationOf is the generation of a model named by ModelName.
func generationOf(name string) int {
	var g int
	fmt.Sscanf(name, "gen-%d.safetensors", &g)
	return g
}

func checkpointName(gen int) string { return fmt.Sprintf("gen-%06d.ckpt", gen) }

// saveModel exports the model of generation gen and makes it the latest.
func (d *RunDir) saveModel(gen int, m *net.Model) error {
	if err := m.Save(d.path(modelsDir, ModelName(gen))); err != nil {
		return err
	}
	return atomicfile.WriteFile(d.path(modelsDir, latestFile), []byte(ModelName(gen)+"\n"), 0o644)
}

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

// saveCheckpoint saves the trainer after generation gen.
func (d *RunDir) saveCheckpoint(gen int, t *net.Trainer) error {
	return t.SaveCheckpoint(d.path(ckptDir, checkpointName(gen)))
}

// loadCheckpoint restores the trainer from the checkpoint of that name.
func (d *RunDir) loadCheckpoint(name string, t *net.Trainer) error {
	if err := t.LoadCheckpoint(d.path(ckptDir, name)); err != nil {
		return fmt.Errorf("selfplay: resuming %s: %w", d.root, err)
	}
	return nil
}

// removeOldCheckpoints keeps the checkpoints of generations gen and gen-1.
func (d *RunDir) removeOldCheckpoints(gen int) {
	names, _ := filepath.Glob(d.path(ckptDir, "gen-*.ckpt"))
	sort.Strings(names)
	keep := map[string]bool{checkpointName(gen): true, checkpointName(gen - 1): true}
	for _, n := range names {
		if !keep[filepath.Base(n)] {
			os.Remove(n)
		}
	}
}
