package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/konanezero/konane/arena"
	"github.com/konanezero/konane/internal/golden"
	"github.com/konanezero/konane/net/nettest"
	"github.com/konanezero/konane/runstore"
	"github.com/konanezero/konane/selfplay"
)

// TestTrainConfigGolden: the configuration that "konane train" hands to
// the training loop for each command line of a table, new runs and
// resumed ones, is the one in testdata/train-config.golden (rewritten
// with -update).
func TestTrainConfigGolden(t *testing.T) {
	var got []selfplay.Config
	trainLoop = func(_ context.Context, _ string, cfg selfplay.Config, _ selfplay.Hooks, _ func(string, ...any)) error {
		got = append(got, cfg)
		return nil
	}
	trainFromWorkers = func(_ context.Context, _ *runstore.Store, cfg selfplay.Config, _ selfplay.Hooks, _ func(string, ...any)) error {
		got = append(got, cfg)
		return nil
	}
	defer func() { trainLoop, trainFromWorkers = runLoop, runFromWorkers }()
	newRuns := [][]string{
		nil,
		{"--size", "6"},
		{"--size", "4"},
		{"--size", "5", "--sims", "8"},
		{"--size", "6", "--fast-sims", "100"},
		{"--size", "7", "--sims", "32", "--fast-sims", "8", "--full-prob", "0.5"},
		{"--size", "6", "--seed", "9", "--games-per-gen", "4", "--workers", "3", "--generations", "7", "--time", "1h"},
		{"--search", "gumbel", "--solver", "off", "--value-mix", "0.3", "--temperature", "0.5", "--exact-values=false"},
		{"--search", "puct", "--solve-nodes", "100", "--solve-stones", "20"},
		{"--size", "6", "--rescore-stones", "0", "--random-plies", "0"},
		{"--size", "5", "--rescore-stones", "12", "--rescore-children", "2", "--rescore-child-policy"},
		{"--size", "4", "--blocks", "0", "--games-per-gen", "8"}, // 0 is a value: no residual block
		{"--filters", "8", "--blocks", "2", "--captures=false", "--batch", "16", "--lr", "0.01", "--reuse", "4"},
		{"--gate-games", "10"},
		{"--gate-games", "10", "--gate-sims", "8", "--gate-sprt", "-10,20,0.1,0.1"},
		{"--selfplay=false"},
		{"--soft-policy"},
		{"--surprise-weighting"},
	}
	dir := t.TempDir()
	for i, args := range newRuns {
		run := filepath.Join(dir, "new", string(rune('a'+i)))
		if err := os.MkdirAll(run, 0o755); err != nil {
			t.Fatal(err)
		}
		trainCmd(t, append([]string{"--run", run}, args...)...)
	}
	// Resumed runs: the saved configuration is a 6x6 run's with settings
	// of its own.
	resumed := [][]string{
		nil,
		{"--generations", "3", "--time", "2m", "--workers", "5"},
		{"--seed", "1", "--lr", "0.05", "--random-plies", "4"},
		{"--size", "6", "--sims", "100"},
		{"--gate-games", "0"},
		{"--gate-games", "6"},
		{"--solver", "on", "--temperature", "0", "--exact-values"},
		{"--search", "gumbel"},
		{"--selfplay=false"},
		{"--soft-policy"},
		{"--soft-policy=false"},
		{"--surprise-weighting"},
	}
	base := selfplay.DefaultConfig(6)
	base.Seed, base.Train.LR, base.Game.RandomPlies, base.Parallel, base.Generations = 3, 0.05, 4, 7, 9
	base.Game.MCTS.Solver, base.Game.Temperature.Final, base.Game.ExactValues = false, 0.25, false
	base.Gate = selfplay.GateConfig{Games: 4, Sims: 16, SPRT: arena.SPRT{Elo0: 0, Elo1: 40, Alpha: 0.05, Beta: 0.05}}
	saved, err := json.MarshalIndent(base, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	refused := map[int]string{}
	for i, args := range resumed {
		run := filepath.Join(dir, "resumed", string(rune('a'+i)))
		if err := os.MkdirAll(run, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(run, "config.json"), saved, 0o644); err != nil {
			t.Fatal(err)
		}
		// A flag that would change the run is refused, with the settings
		// it changes.
		var out bytes.Buffer
		err := runCmd(append([]string{"train", "--run", run}, args...), &out)
		if err != nil {
			msg := err.Error()
			if i := strings.Index(msg, "("); i >= 0 && strings.Contains(msg, "a resumed run keeps") {
				got = append(got, selfplay.Config{})
				refused[len(got)-1] = msg[i+1 : strings.Index(msg, "): ")]
				continue
			}
			t.Fatalf("train %v: %v\n%s", args, err, out.String())
		}
	}
	var b strings.Builder
	for i, args := range append(newRuns, resumed...) {
		kind := "new"
		if i >= len(newRuns) {
			kind = "resumed"
		}
		js, err := json.Marshal(got[i])
		if err != nil {
			t.Fatal(err)
		}
		if diff, ok := refused[i]; ok {
			js = []byte("refused: " + diff)
		}
		b.WriteString(kind + " " + strings.Join(args, " ") + "\n" + string(js) + "\n")
	}
	golden.Check(t, "train-config.golden", []byte(b.String()))
}

func runCmd(args []string, out *bytes.Buffer) error {
	return run(context.Background(), args, nil, out, out)
}

// trainRun runs "konane train --run dir" with args and returns its
// output.
func trainRun(dir string, args ...string) (string, error) {
	var out bytes.Buffer
	err := runCmd(append([]string{"train", "--run", dir}, args...), &out)
	return out.String(), err
}

// newRunConfig runs "konane train" with args on a new run, whose loop
// captureTrainConfig replaced with one storing its config in got, and
// reports whether it ran. With wantErr not "", it must fail with an
// error that says wantErr instead; any other failure fails t.
func newRunConfig(t *testing.T, got *selfplay.Config, args []string, wantErr string) (out string, ran bool) {
	t.Helper()
	*got = selfplay.Config{}
	out, err := trainRun(filepath.Join(t.TempDir(), "run"), args...)
	switch {
	case wantErr != "":
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%v: err %v, want %q", args, err, wantErr)
		}
		return out, false
	case err != nil:
		t.Errorf("%v: %v\n%s", args, err, out)
		return out, false
	}
	return out, true
}

func trainCmd(t *testing.T, args ...string) {
	t.Helper()
	var out bytes.Buffer
	if err := run(context.Background(), append([]string{"train"}, args...), nil, &out, &out); err != nil {
		t.Fatalf("train %v: %v\n%s", args, err, out.String())
	}
}

// TestTrainSettingsAgree: the resume column of trainSettings says what
// the run's own check says: a saved setting that a resumed run keeps is
// one in which selfplay.ResumeDiff sees a change, and only those.
func TestTrainSettingsAgree(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range trainSettings {
		if seen[s.flag] {
			t.Errorf("--%s: two rows", s.flag)
		}
		seen[s.flag] = true
		if (s.field == nil) == (s.option == nil) {
			t.Errorf("--%s: want a field or an option, not both or neither", s.flag)
			continue
		}
		if s.field == nil {
			continue
		}
		saved := selfplay.DefaultConfig(6)
		given := saved
		v := reflect.ValueOf(s.field(&given)).Elem()
		switch v.Kind() {
		case reflect.Int, reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Uint64, reflect.Uint8:
			v.SetUint(v.Uint() + 1)
		case reflect.Float64:
			v.SetFloat(v.Float() + 0.5)
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Struct:
			v.Field(1).SetFloat(v.Field(1).Float() + 1)
		case reflect.Slice:
			v.Set(v.Slice(0, v.Len()-1))
		default:
			t.Fatalf("--%s: no change for a %s", s.flag, v.Kind())
		}
		if diff := selfplay.ResumeDiff(saved, given); (diff != "") != (s.resume == keep) {
			t.Errorf("--%s: resume rule %d, but the change gives diff %q", s.flag, s.resume, diff)
		}
	}
}

// TestTrainInit: --init takes the model's network, deeper with --blocks,
// with the capture planes of --captures or with the soft policy head of
// --soft-policy; --filters cannot change it.
func TestTrainInit(t *testing.T) {
	got := captureTrainConfig(t)
	model := filepath.Join(t.TempDir(), "m.safetensors")
	m := nettest.TinyModel(t, 6, 1)
	if err := m.Save(model); err != nil {
		t.Fatal(err)
	}
	want := m.Config()
	for _, tc := range []struct {
		args   []string
		blocks int
		soft   bool
		err    string
	}{
		{nil, want.Blocks, false, ""},
		{[]string{"--blocks", "3"}, 3, false, ""},
		{[]string{"--soft-policy"}, want.Blocks, true, ""},
		{[]string{"--blocks", "0"}, 0, false, "--blocks and --captures can only add to it"}, // 0 is a value, not "the model's"
		{[]string{"--filters", "16"}, 0, false, "--filters cannot change it"},
		{[]string{"--resume"}, 0, false, "holds no run"},
	} {
		var out bytes.Buffer
		args := append([]string{"train", "--run", filepath.Join(t.TempDir(), "run"), "--size", "6", "--init", model}, tc.args...)
		err := runCmd(args, &out)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: err %v, want %q", tc.args, err, tc.err)
			}
		case err != nil:
			t.Errorf("%v: %v\n%s", tc.args, err, out.String())
		default:
			w := want
			w.Blocks, w.SoftPolicy = tc.blocks, tc.soft
			if got.Net != w || got.Init != model {
				t.Errorf("%v: net %+v init %q, want %+v %q", tc.args, got.Net, got.Init, w, model)
			}
			if got.InitModel == nil || got.InitModel.Config() != want {
				t.Errorf("%v: the run is not handed the model --init loaded (read once)", tc.args)
			}
		}
	}
}

// captureTrainConfig replaces the training loop of "konane train" for the
// test's duration: the run does not start, and the configuration it
// would have been given is stored in the returned Config.
func captureTrainConfig(t *testing.T) *selfplay.Config {
	t.Helper()
	got := new(selfplay.Config)
	trainLoop = func(_ context.Context, _ string, cfg selfplay.Config, _ selfplay.Hooks, _ func(string, ...any)) error {
		*got = cfg
		return nil
	}
	t.Cleanup(func() { trainLoop = runLoop })
	return got
}

// TestTrainRefusesForeignDir: a new run is not started in a directory of
// other files, and a config.json that is a folder is named as such, not
// taken for a missing one (issue 47).
func TestTrainRefusesForeignDir(t *testing.T) {
	foreign := t.TempDir()
	os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o644)
	folder := t.TempDir()
	os.Mkdir(filepath.Join(folder, "config.json"), 0o755)
	for dir, want := range map[string]string{
		foreign: `train: --run ` + foreign + `: the directory holds "notes.txt", which is not a run's`,
		folder:  "config.json in " + folder + ": is a directory",
	} {
		var out bytes.Buffer
		err := runCmd([]string{"train", "--run", dir, "--size", "4", "--generations", "1", "--games-per-gen", "2"}, &out)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("train --run %s: %v, want %q", dir, err, want)
		}
	}
	if es, _ := os.ReadDir(foreign); len(es) != 1 {
		t.Errorf("the refused directory holds %d entries, want only notes.txt", len(es))
	}
}

// TestTrainResumesInRunMode: a run fed by workers resumes fed by workers
// when --selfplay is not given, and is refused in one line naming the
// flag when it contradicts the run; a run made before the mode was
// recorded resumes as the flags say (issue 47).
func TestTrainResumesInRunMode(t *testing.T) {
	var called string
	trainLoop = func(context.Context, string, selfplay.Config, selfplay.Hooks, func(string, ...any)) error {
		called = "local"
		return nil
	}
	trainFromWorkers = func(context.Context, *runstore.Store, selfplay.Config, selfplay.Hooks, func(string, ...any)) error {
		called = "workers"
		return nil
	}
	defer func() { trainLoop, trainFromWorkers = runLoop, runFromWorkers }()
	runWith := func(mode string) string {
		dir := t.TempDir()
		cfg := selfplay.DefaultConfig(4)
		cfg.Games = mode
		b, _ := json.Marshal(cfg)
		if err := os.WriteFile(filepath.Join(dir, "config.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	for _, c := range []struct {
		mode  string
		flags []string
		want  string // the loop called, or the error
	}{
		{selfplay.ModeWorkers, nil, "workers"},
		{selfplay.ModeWorkers, []string{"--selfplay=false"}, "workers"},
		{selfplay.ModeWorkers, []string{"--selfplay=true"}, "the run is trained from workers' games: add --selfplay=false"},
		{selfplay.ModeLocal, nil, "local"},
		{selfplay.ModeLocal, []string{"--selfplay=false"}, "the run plays its own games: leave out --selfplay=false"},
		{"", nil, "local"},
		{"", []string{"--selfplay=false"}, "workers"},
	} {
		called = ""
		var out bytes.Buffer
		err := runCmd(append([]string{"train", "--run", runWith(c.mode)}, c.flags...), &out)
		got := called
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, c.want) || strings.Contains(got, "\n") {
			t.Errorf("a run of mode %q, train %v: %q, want %q", c.mode, c.flags, got, c.want)
		}
	}
}
