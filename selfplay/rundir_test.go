package selfplay

import (
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
		{"negative generation", map[string]string{configFile: string(good), stateFile: `{"generation": -5}`}, stateFile, "generation -5"},
		{"huge generation", map[string]string{configFile: string(good), stateFile: `{"generation": 99999999999}`}, stateFile, "generation"},
		{"checkpoint elsewhere", map[string]string{configFile: string(good),
			stateFile: `{"generation": 1, "checkpoint": "../../etc/passwd", "model": "gen-000001.safetensors"}`}, stateFile, "checkpoint"},
		{"best from the future", map[string]string{configFile: string(good),
			stateFile: `{"generation": 1, "checkpoint": "gen-000001.ckpt", "model": "gen-000001.safetensors", "best": "gen-000002.safetensors"}`}, stateFile, "best"},
		{"negative wall time", map[string]string{configFile: string(good),
			stateFile: `{"generation": 0, "wall_secs": -1}`}, stateFile, "wall_secs"},
		{"state field unknown", map[string]string{configFile: string(good), stateFile: `{"generations": 3}`}, stateFile, `unknown field "generations"`},
		{"state not JSON", map[string]string{configFile: string(good), stateFile: `{"generation": 1`}, stateFile, "corrupt"},
		{"config missing beside a state", map[string]string{stateFile: `{"generation": 0}`}, configFile, "missing"},
		{"config missing beside models", map[string]string{"models/gen-000001.safetensors": "x"}, configFile, "models/gen-000001.safetensors"},
		{"config missing beside samples", map[string]string{"replay/gen-000001.shard": "x"}, configFile, "replay/gen-000001.shard"},
		{"config field unknown", map[string]string{configFile: withField}, configFile, `unknown field "games_per_generation"`},
		{"config null", map[string]string{configFile: "null"}, configFile, "not a JSON object"},
		{"config with trailing data", map[string]string{configFile: string(good) + "{}"}, configFile, "data after"},
		{"config learning rate", map[string]string{configFile: changed(func(c *Config) { c.Train.LR = -5 })}, configFile, "learning rate -5"},
		{"config batch", map[string]string{configFile: changed(func(c *Config) { c.Train.Batch = 0 })}, configFile, "batch 0"},
		{"config cache size", map[string]string{configFile: changed(func(c *Config) { c.CacheSize = -1 })}, configFile, "cache size -1"},
		{"config out of bounds", map[string]string{configFile: strings.Replace(string(good), `"games_per_gen":6`, `"games_per_gen":-6`, 1)}, configFile, "games per generation -6"},
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
			err := Run(context.Background(), dir, cfg, Hooks{}, t.Logf)
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
	for _, sub := range []string{modelsDir, replayDir} {
		os.MkdirAll(filepath.Join(dir, sub), 0o755)
	}
	if err := Run(context.Background(), dir, cfg, Hooks{}, t.Logf); err != nil {
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
		if err == nil && !info.IsDir() && info.Name() != lockFile {
			b, _ := os.ReadFile(path)
			out[path] = string(b)
		}
		return nil
	})
	return out
}

func FuzzParseState(f *testing.F) {
	for _, st := range []state{{}, {Generation: 3, Checkpoint: checkpointName(3), Model: ModelName(3), Best: ModelName(2), WallSecs: 12.5}} {
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
		st, err := parseState(data)
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
		again, err := parseState(b)
		if err != nil || !reflect.DeepEqual(again, st) {
			t.Fatalf("state %+v written back reads %+v, %v", st, again, err)
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
	dir := t.TempDir()
	cfg := tinyConfig()
	cfg.Generations = 1
	if err := Run(context.Background(), dir, cfg, Hooks{}, t.Logf); err != nil {
		t.Fatal(err)
	}
	cfg.Net.Filters *= 2
	cfg.Generations = 2
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(filepath.Join(dir, configFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	err := Run(context.Background(), dir, cfg, Hooks{}, t.Logf)
	var fe *FileError
	if !errors.As(err, &fe) || fe.Path != filepath.Join(dir, configFile) || !strings.Contains(err.Error(), "the run trained") {
		t.Fatalf("resume with other filters: %v, want an error naming config.json", err)
	}
}

// TestMissingMetricsWarns: a resumed run whose metrics.csv was deleted
// warns, naming the generations whose history is lost.
func TestMissingMetricsWarns(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig()
	cfg.Generations = 2
	if err := Run(context.Background(), dir, cfg, Hooks{}, t.Logf); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, metricsFile)); err != nil {
		t.Fatal(err)
	}
	cfg.Generations = 3
	var logged []string
	logf := func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }
	if err := Run(context.Background(), dir, cfg, Hooks{}, logf); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(logged, func(l string) bool {
		return strings.HasPrefix(l, "warning: ") && strings.Contains(l, "generations 1 to 2 are lost")
	}) {
		t.Errorf("log %q: want a warning naming generations 1 to 2", logged)
	}
}

// TestMetricsRowDeletedWarns: a metrics.csv whose row of generation 1 was
// deleted warns that generation 1 is lost, not the last one, and keeps
// the rows it has (issue 47).
func TestMetricsRowDeletedWarns(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig()
	cfg.Generations = 2
	if err := Run(context.Background(), dir, cfg, Hooks{}, t.Logf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, metricsFile)
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
	cfg.Generations = 3
	var logged []string
	logf := func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }
	if err := Run(context.Background(), dir, cfg, Hooks{}, logf); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(logged, func(l string) bool {
		return strings.HasPrefix(l, "warning: ") && strings.HasSuffix(l, "those of generation 1 are lost")
	}) {
		t.Errorf("log %q: want a warning naming generation 1", logged)
	}
	d := NewRunDir(dir)
	defer d.Close()
	all, err := d.Metrics()
	if err != nil || len(all) != 2 || all[0].Generation != 2 || all[1].Generation != 3 {
		t.Errorf("metrics after the resume: %+v, %v; want generations 2 and 3", all, err)
	}
}
