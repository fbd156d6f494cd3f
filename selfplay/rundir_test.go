package selfplay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/konanezero/konane/net/train"
	"github.com/konanezero/konane/runfiles"
	"github.com/konanezero/konane/runstore"
)

// TestRunRefusesBadFiles checks that a run directory with a state or a
// configuration that cannot be trusted is refused with one line naming
// the file, instead of a panic or a silent restart with defaults.
func TestRunRefusesBadFiles(t *testing.T) {
	cfg := tinyConfig()
	cfg.Generations = 1
	good, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	withField := strings.Replace(string(good), "{", `{"games_per_generation": 8,`, 1)
	changed := func(f func(c *Config)) string {
		c := cfg
		f(&c)
		b, _ := json.Marshal(c)
		return string(b)
	}
	for _, c := range []struct {
		name   string
		files  map[string]string // relative path: content ("" = empty folder)
		inFile string            // the file the error must name
		says   string
	}{
		{"negative generation", map[string]string{runfiles.ConfigFile: string(good), runfiles.StateFile: `{"generation": -5}`}, runfiles.StateFile, "generation -5"},
		{"huge generation", map[string]string{runfiles.ConfigFile: string(good), runfiles.StateFile: `{"generation": 99999999999}`}, runfiles.StateFile, "generation"},
		{"checkpoint elsewhere", map[string]string{runfiles.ConfigFile: string(good),
			runfiles.StateFile: `{"generation": 1, "checkpoint": "../../etc/passwd", "model": "gen-000001.safetensors"}`}, runfiles.StateFile, "checkpoint"},
		{"best from the future", map[string]string{runfiles.ConfigFile: string(good),
			runfiles.StateFile: `{"generation": 1, "checkpoint": "gen-000001.ckpt", "model": "gen-000001.safetensors", "best": "gen-000002.safetensors"}`}, runfiles.StateFile, "best"},
		{"negative wall time", map[string]string{runfiles.ConfigFile: string(good),
			runfiles.StateFile: `{"generation": 0, "wall_secs": -1}`}, runfiles.StateFile, "wall_secs"},
		{"state field unknown", map[string]string{runfiles.ConfigFile: string(good), runfiles.StateFile: `{"generations": 3}`}, runfiles.StateFile, `unknown field "generations"`},
		{"state not JSON", map[string]string{runfiles.ConfigFile: string(good), runfiles.StateFile: `{"generation": 1`}, runfiles.StateFile, "corrupt"},
		{"config missing beside a state", map[string]string{runfiles.StateFile: `{"generation": 0}`}, runfiles.ConfigFile, "missing"},
		{"config missing beside models", map[string]string{"models/gen-000001.safetensors": "x"}, runfiles.ConfigFile, "models/gen-000001.safetensors"},
		{"config missing beside samples", map[string]string{"replay/gen-000001.shard": "x"}, runfiles.ConfigFile, "replay/gen-000001.shard"},
		{"config field unknown", map[string]string{runfiles.ConfigFile: withField}, runfiles.ConfigFile, `unknown field "games_per_generation"`},
		{"config null", map[string]string{runfiles.ConfigFile: "null"}, runfiles.ConfigFile, "not a JSON object"},
		{"config with trailing data", map[string]string{runfiles.ConfigFile: string(good) + "{}"}, runfiles.ConfigFile, "data after"},
		{"config learning rate", map[string]string{runfiles.ConfigFile: changed(func(c *Config) { c.Train.LR = -5 })}, runfiles.ConfigFile, "learning rate -5"},
		{"config batch", map[string]string{runfiles.ConfigFile: changed(func(c *Config) { c.Train.Batch = 0 })}, runfiles.ConfigFile, "batch 0"},
		{"config cache size", map[string]string{runfiles.ConfigFile: changed(func(c *Config) { c.CacheSize = -1 })}, runfiles.ConfigFile, "cache size -1"},
		{"config out of bounds", map[string]string{runfiles.ConfigFile: strings.Replace(string(good), `"games_per_gen":6`, `"games_per_gen":-6`, 1)}, runfiles.ConfigFile, "games per generation -6"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range c.files {
				path := filepath.Join(dir, name)
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := snapshot(t, dir)
			err := Run(context.Background(), dir, cfg, train.New, Hooks{}, t.Logf)
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("Run: %v, want a *FileError", err)
			}
			msg := err.Error()
			if fe.Path != filepath.Join(dir, c.inFile) || !strings.Contains(msg, filepath.Join(dir, c.inFile)) || !strings.Contains(msg, c.says) || strings.Contains(msg, "\n") || strings.Count(msg, "selfplay:") != 1 {
				t.Errorf("error %q: want one line naming %s and saying %q", msg, c.inFile, c.says)
			}
			if after := snapshot(t, dir); !reflect.DeepEqual(after, before) {
				t.Errorf("the refused directory changed: %v, then %v", before, after)
			}
		})
	}
	// A new directory, even one with empty folders, starts a run.
	dir := t.TempDir()
	for _, sub := range []string{runfiles.ModelsDir, runfiles.ReplayDir} {
		os.MkdirAll(filepath.Join(dir, sub), 0o755)
	}
	if err := Run(context.Background(), dir, cfg, train.New, Hooks{}, t.Logf); err != nil {
		t.Fatalf("new directory: %v", err)
	}
	if st, err := NewRunDir(dir).readState(); err != nil || st.Generation != 1 {
		t.Errorf("new directory: state %+v, %v", st, err)
	}
}

// snapshot maps every file under dir (but the lock) to its content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && info.Name() != runfiles.LockFile {
			b, _ := os.ReadFile(path)
			out[path] = string(b)
		}
		return nil
	})
	return out
}

func FuzzParseState(f *testing.F) {
	for _, st := range []runfiles.State{{}, {Generation: 3, Checkpoint: runfiles.CheckpointName(3), Model: runfiles.ModelName(3), Best: runfiles.ModelName(2), WallSecs: 12.5}} {
		b, err := json.Marshal(st)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"generation": -5}`))
	f.Add([]byte(`{"generation": 1, "checkpoint": "../x", "model": "gen-000001.safetensors"}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"generation": 1e400}`))
	f.Add([]byte(`{"generation": 2, "checkpoint": "gen-000002.ckpt", "model": "gen-000002.safetensors", "ingested": ["replay/gen-000001/` + strings.Repeat("ab", 32) + `.shard"]}`))
	f.Add([]byte(`{"generation": 1, "checkpoint": "gen-000001.ckpt", "model": "gen-000001.safetensors", "ingested": ["../x"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := runfiles.ParseState(data)
		if err != nil {
			return
		}
		if err := st.Validate(); err != nil {
			t.Fatalf("accepted an invalid state %+v: %v", st, err)
		}
		b, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		// Written back, it reads as the same state: the same bytes again
		// (an empty list and none are one state: "ingested": [] reads
		// as an empty list and is written as none).
		again, err := runfiles.ParseState(b)
		if err != nil {
			t.Fatalf("state %+v written back does not read: %v", st, err)
		}
		if b2, err := json.Marshal(again); err != nil || !bytes.Equal(b2, b) {
			t.Fatalf("state %+v written back reads %+v, written %s, not %s", st, again, b2, b)
		}
	})
}

func FuzzParseConfig(f *testing.F) {
	for _, c := range []Config{tinyConfig(), DefaultConfig(6), DefaultConfig(8)} {
		b, err := json.MarshalIndent(c, "", "  ")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"size": 6, "extra": 1}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{} {}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseConfig(data)
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("accepted an invalid config: %v", err)
		}
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		again, err := parseConfig(b)
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Fatalf("config written back reads differently (%v):\n%+v\n%+v", err, c, again)
		}
		configDiff(c.identity(), tinyConfig().identity())
	})
}

// TestConfigDiffAddedSetting: a setting left out of the saved configuration
// (zero, or added since the run began) differs from a nonzero one given on
// resume, either way round; zero and missing are the same.
func TestConfigDiffAddedSetting(t *testing.T) {
	saved, given := tinyConfig(), tinyConfig()
	saved.Game.RandomPlies, given.Game.RandomPlies = 0, 5
	if d := configDiff(saved.identity(), given.identity()); !strings.Contains(d, "game.RandomPlies: saved (not set), given 5") {
		t.Errorf("saved without, given 5: diff %q", d)
	}
	if d := configDiff(given.identity(), saved.identity()); !strings.Contains(d, "game.RandomPlies: saved 5, given (not set)") {
		t.Errorf("saved 5, given without: diff %q", d)
	}
	if d := configDiff(saved.identity(), saved.identity()); d != "" {
		t.Errorf("same configuration: diff %q", d)
	}
}

// TestFiltersChangedBlamesConfig: a config.json whose network was edited
// after the run trained is named as the culprit, not the checkpoint.
func TestFiltersChangedBlamesConfig(t *testing.T) {
	dir, cfg := tinyRun(t, 1)
	cfg.Net.Filters *= 2
	cfg.Generations = 2
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(filepath.Join(dir, runfiles.ConfigFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	err := Run(context.Background(), dir, cfg, train.New, Hooks{}, t.Logf)
	var fe *FileError
	if !errors.As(err, &fe) || fe.Path != filepath.Join(dir, runfiles.ConfigFile) || !strings.Contains(err.Error(), "the run trained") {
		t.Fatalf("resume with other filters: %v, want an error naming config.json", err)
	}
}

// TestMissingMetricsWarns: a resumed run whose metrics.csv was deleted
// warns, naming the generations whose history is lost.
func TestMissingMetricsWarns(t *testing.T) {
	dir, cfg := tinyRun(t, 2)
	if err := os.Remove(filepath.Join(dir, runfiles.MetricsFile)); err != nil {
		t.Fatal(err)
	}
	if logged := resumeLog(t, dir, cfg, 3); !hasWarning(logged, func(l string) bool { return strings.Contains(l, "generations 1 to 2 are lost") }) {
		t.Errorf("log %q: want a warning naming generations 1 to 2", logged)
	}
}

// TestMetricsRowDeletedWarns: a metrics.csv whose row of generation 1 was
// deleted warns that generation 1 is lost, not the last one, and keeps
// the rows it has (issue 47).
func TestMetricsRowDeletedWarns(t *testing.T) {
	dir, cfg := tinyRun(t, 2)
	path := filepath.Join(dir, runfiles.MetricsFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[1], "1,") {
		t.Fatalf("metrics.csv:\n%s", b)
	}
	if err := os.WriteFile(path, []byte(lines[0]+strings.Join(lines[2:], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if logged := resumeLog(t, dir, cfg, 3); !hasWarning(logged, func(l string) bool { return strings.HasSuffix(l, "those of generation 1 are lost") }) {
		t.Errorf("log %q: want a warning naming generation 1", logged)
	}
	d := NewRunDir(dir)
	defer d.Close()
	all, err := d.Metrics()
	if err != nil || len(all) != 2 || all[0].Generation != 2 || all[1].Generation != 3 {
		t.Errorf("metrics after the resume: %+v, %v; want generations 2 and 3", all, err)
	}
}

// TestResumeChecksModel: a model replaced under models/ after its
// generation was committed is refused when the run resumes, naming the
// file (issue 47): the committed generation's, and the best model of a
// gated run, which plays its games.
func TestResumeChecksModel(t *testing.T) {
	dir, cfg := tinyRun(t, 2)
	for _, c := range []struct {
		what string
		gen  int
		best bool // made the best model first, as a gate that kept it would have
	}{{"committed", 2, false}, {"best", 1, true}} {
		run := filepath.Join(t.TempDir(), "run")
		os.CopyFS(run, os.DirFS(dir))
		model := filepath.Join(run, runfiles.ModelKey(c.gen))
		b, err := os.ReadFile(model)
		if err != nil {
			t.Fatal(err)
		}
		if c.best {
			d := NewRunDir(run)
			st, err := d.readState()
			if err == nil {
				st.Best, st.BestSHA256 = runfiles.ModelName(c.gen), runstore.SHA256(b)
				err = d.writeState(st)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		b[len(b)-1] ^= 1
		if err := os.WriteFile(model, b, 0o644); err != nil {
			t.Fatal(err)
		}
		cfg.Generations = 3
		err = Run(context.Background(), run, cfg, train.New, Hooks{}, t.Logf)
		var fe *FileError
		if !errors.As(err, &fe) || fe.Path != model || !strings.Contains(err.Error(), "the model was replaced") {
			t.Errorf("resume after the %s model was replaced: %v, want a FileError naming it", c.what, err)
		}
	}
}

// tinyRun trains a tiny run (tinyConfig) of gens generations in a new
// temporary folder and returns the folder and the run's config.
func tinyRun(t *testing.T, gens int) (string, Config) {
	t.Helper()
	dir := t.TempDir()
	cfg := tinyConfig()
	cfg.Generations = gens
	mustRun(t, dir, cfg)
	return dir, cfg
}

// resumeLog resumes the run in dir (of config cfg) up to gens
// generations and returns the lines it logged.
func resumeLog(t *testing.T, dir string, cfg Config, gens int) []string {
	t.Helper()
	cfg.Generations = gens
	var logged []string
	logf := func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }
	if err := Run(context.Background(), dir, cfg, train.New, Hooks{}, logf); err != nil {
		t.Fatal(err)
	}
	return logged
}

// hasWarning reports whether one of the lines logged is a warning that
// says what says.
func hasWarning(logged []string, says func(line string) bool) bool {
	return slices.ContainsFunc(logged, func(l string) bool { return strings.HasPrefix(l, "warning: ") && says(l) })
}
