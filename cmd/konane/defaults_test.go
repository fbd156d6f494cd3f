package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/selfplay"
)

// TestAdaptSims: defaults the user did not set adapt to the flags they
// did; only explicit flags conflict, and the error names them.
func TestAdaptSims(t *testing.T) {
	def := selfplay.DefaultConfig(6).Game.Cap // 64 full, 16 fast
	for _, tc := range []struct {
		set              []string
		sims, fast       int
		wantFull, wantFs int
		err              string
	}{
		{nil, 0, 0, def.FullSims, def.FastSims, ""},
		{[]string{"sims"}, 8, 0, 8, 2, ""},
		{[]string{"sims"}, 2, 0, 2, 1, ""},
		{[]string{"sims"}, 800, 0, 800, def.FastSims, ""},
		{[]string{"fast-sims"}, 0, 8, def.FullSims, 8, ""},
		{[]string{"fast-sims"}, 0, 100, 100, 100, ""},
		{[]string{"sims", "fast-sims"}, 8, 8, 8, 8, ""},
		{[]string{"sims", "fast-sims"}, 8, 16, 0, 0, "--fast-sims 16 is more than --sims 8"},
		{[]string{"sims"}, 0, 0, 0, 0, "--sims 0: want at least 1"},
		{[]string{"fast-sims"}, 0, -1, 0, 0, "--fast-sims -1: want at least 1"},
	} {
		c := def
		set := map[string]bool{}
		for _, n := range tc.set {
			set[n] = true
		}
		err := adaptSims(&c, set, tc.sims, tc.fast)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v sims %d fast %d: err %v, want %q", tc.set, tc.sims, tc.fast, err, tc.err)
			}
		case err != nil || c.FullSims != tc.wantFull || c.FastSims != tc.wantFs:
			t.Errorf("%v sims %d fast %d: %d/%d (%v), want %d/%d", tc.set, tc.sims, tc.fast, c.FullSims, c.FastSims, err, tc.wantFull, tc.wantFs)
		default:
			if err := c.Validate(); err != nil {
				t.Errorf("%v: adapted cap invalid: %v", tc.set, err)
			}
		}
	}
}

// TestTrainSmallSims: "konane train --size 6 --sims 8" starts (before it
// failed with "FastSims 16: want 1..FullSims (8)"); it is stopped at once
// by a cancelled context.
func TestTrainSmallSims(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	dir := filepath.Join(t.TempDir(), "run")
	err := run(ctx, []string{"train", "--run", dir, "--size", "6", "--sims", "8", "--filters", "4", "--blocks", "1"}, nil, &out, &out)
	if err != nil {
		t.Fatalf("train --sims 8: %v\n%s", err, out.String())
	}
}

// TestExplicitFlagsConflict: flags set together that cannot both hold
// are refused with an error naming them.
func TestExplicitFlagsConflict(t *testing.T) {
	dir := t.TempDir()
	checkErrors(t, []errCase{
		{[]string{"train", "--run", dir, "--size", "6", "--sims", "8", "--fast-sims", "16"}, "train: --fast-sims 16 is more than --sims 8"},
		{[]string{"train", "--run", dir, "--gate-sims", "8"}, "--gate-sims needs --gate-games: give it too"},
		{[]string{"train", "--run", dir, "--soft-policy-weight", "1"}, "--soft-policy-weight needs --soft-policy: give it too"},
		{[]string{"train", "--run", dir, "--soft-policy", "--soft-policy-weight", "101"}, "--soft-policy-weight 101: want 0..100"},
		{[]string{"train", "--run", dir, "--solver", "off", "--solve-nodes", "100"}, "--solve-nodes applies to the solver, which --solver off turns off"},
		{[]string{"play", "--level", "hard", "--sims", "100"}, "play: --sims 100 and --level hard both set the simulations per move"},
		{[]string{"gtp", "--level", "easy", "--sims", "10"}, "gtp: --sims 10 and --level easy both set"},
		{[]string{"arena", "--size", "5", "--solver-check", "--games", "4", "greedy"}, "--games applies to a match, not to --solver-check"},
		{[]string{"arena", "--size", "5", "--positions", "4", "greedy", "random"}, "--positions applies to --solver-check only"},
		{[]string{"serve", "--trusted-proxies", "10.0.0.1,proxy.example"}, "serve: --trusted-proxies: "},
	})
}

// TestStrengthFlags: the default level gives way to --sims or --time; an
// explicit level with --time limits both.
func TestStrengthFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		sims int
		time time.Duration
	}{
		{nil, 512, 0},
		{[]string{"--sims", "100"}, 100, 0},
		{[]string{"--time", "2s"}, 0, 2 * time.Second},
		{[]string{"--level", "hard", "--time", "2s"}, 2048, 2 * time.Second},
		{[]string{"--sims", "50", "--time", "1s"}, 50, time.Second},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var af agentFlags
		af.declare(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		s, err := af.strength("play", fs)
		if err != nil || s.Sims != tc.sims || s.Time != tc.time {
			t.Errorf("%v: %+v %v, want %d sims, %v", tc.args, s, err, tc.sims, tc.time)
		}
	}
}

// TestTrainResumesSavedSettings: "konane train --run DIR" on an existing
// run continues it with the settings in its config.json, without the
// flags it was started with; a flag that would change the run is refused,
// naming the setting, and the run is left as it was.
func TestTrainResumesSavedSettings(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if out, err := trainRun(dir, "--size", "4", "--generations", "1", "--games-per-gen", "2", "--sims", "8", "--fast-sims", "4",
		"--filters", "4", "--blocks", "1", "--batch", "8", "--lr", "0.05", "--random-plies", "3", "--rescore-stones", "9", "--seed", "5"); err != nil {
		t.Fatalf("new run: %v\n%s", err, out)
	}
	before, err := selfplay.NewRunDir(dir).ReadConfig()
	if err != nil {
		t.Fatal(err)
	}
	out, err := trainRun(dir, "--generations", "2")
	if err != nil {
		t.Fatalf("resume without the run's flags: %v\n%s", err, out)
	}
	if !strings.Contains(out, "gen 2:") {
		t.Errorf("resumed run did not play generation 2:\n%s", out)
	}
	after, err := selfplay.NewRunDir(dir).ReadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if after.Size != 4 || after.Seed != 5 || after.Train.LR != 0.05 || after.Game.RandomPlies != 3 ||
		after.Game.RescoreStones != 9 || after.Net != before.Net || after.Game.Cap != before.Game.Cap {
		t.Errorf("resumed with other settings:\nbefore %+v\nafter  %+v", before, after)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--lr", "0.1"}, "train.LR: saved 0.05, given 0.1"},
		{[]string{"--size", "6"}, "--size 6: " + dir + " holds a 4x4 run"},
		{[]string{"--random-plies", "0"}, "game.RandomPlies: saved 3, given (not set)"},
		{[]string{"--seed", "1"}, "seed: saved 5, given 1"},
	} {
		out, err := trainRun(dir, append(tc.args, "--generations", "3")...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want %q\n%s", tc.args, err, tc.want, out)
		}
	}
	if c, err := selfplay.NewRunDir(dir).ReadConfig(); err != nil || c.Train.LR != 0.05 || c.Seed != 5 {
		t.Errorf("a refused resume changed the saved configuration: %+v, %v", c, err)
	}
}

// TestTrainTemperature: --temperature sets the temperature after the
// opening plies (the run's saved configuration says so); a value out of
// range is refused, naming the flag.
func TestTrainTemperature(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := filepath.Join(t.TempDir(), "run")
	var out bytes.Buffer
	if err := run(ctx, []string{"train", "--run", dir, "--size", "4", "--filters", "4", "--blocks", "1", "--temperature", "0.5"}, nil, &out, &out); err != nil {
		t.Fatalf("train --temperature 0.5: %v\n%s", err, out.String())
	}
	c, err := selfplay.NewRunDir(dir).ReadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if c.Game.Temperature.Final != 0.5 || c.Game.Temperature.Initial != 1 {
		t.Errorf("temperature schedule %+v, want Final 0.5 after Initial 1", c.Game.Temperature)
	}
	for _, bad := range []string{"-1", "NaN", "11"} {
		err := run(context.Background(), []string{"train", "--run", t.TempDir(), "--temperature", bad}, nil, &out, &out)
		if err == nil || !strings.Contains(err.Error(), "--temperature") {
			t.Errorf("--temperature %s: err = %v, want one naming --temperature", bad, err)
		}
	}
}

// TestTrainSchedule: a new run gets its size's schedule unless --schedule
// replaces it or --lr / --rescore-children make the setting constant.
func TestTrainSchedule(t *testing.T) {
	got := captureTrainConfig(t)
	for _, tc := range []struct {
		args []string
		want string
		err  string
	}{
		{nil, selfplay.DefaultSchedule(8).String(), ""},
		{[]string{"--lr", "0.01"}, "none", ""},
		{[]string{"--size", "6", "--rescore-children", "2"}, "none", ""},
		{[]string{"--size", "6", "--rescore-stones", "0"}, "1:lr=0.02;588:lr=0.002;898:lr=0.002;1377:lr=0.0005", ""},
		{[]string{"--schedule", "none"}, "none", ""},
		{[]string{"--schedule", "1:lr=0.01;5:lr=0.001", "--lr", "0.05"}, "1:lr=0.01;5:lr=0.001", ""},
		{[]string{"--schedule", "2:lr=0.01"}, "", "-schedule: selfplay: schedule"},
	} {
		if out, ran := newRunConfig(t, got, tc.args, tc.err); ran && got.Schedule.String() != tc.want {
			t.Errorf("%v: schedule %s, want %s\n%s", tc.args, got.Schedule, tc.want, out)
		}
	}
}

// TestTrainAuxHeads: a new run has no auxiliary heads unless --aux-heads
// asks for them; a bad list is refused.
func TestTrainAuxHeads(t *testing.T) {
	got := captureTrainConfig(t)
	for _, tc := range []struct {
		args []string
		want net.AuxHeads
		err  string
	}{
		{nil, 0, ""},
		{[]string{"--aux-heads", "none"}, 0, ""},
		{[]string{"--aux-heads", "ownership"}, net.AuxOwnership, ""},
		{[]string{"--aux-heads", "moves-left,ownership"}, net.AuxOwnership | net.AuxMovesLeft, ""},
		{[]string{"--aux-heads", "score"}, 0, `auxiliary head "score"`},
	} {
		if out, ran := newRunConfig(t, got, tc.args, tc.err); ran && got.Net.Aux != tc.want {
			t.Errorf("%v: heads %v, want %v\n%s", tc.args, got.Net.Aux, tc.want, out)
		}
	}
}

// TestTrainPresence: a train flag given is a value, whatever it is: 0 and
// -1 no longer ask for the default (the flags not given do), so a real 0
// is kept and a value out of range is refused, naming it.
func TestTrainPresence(t *testing.T) {
	got := captureTrainConfig(t)
	if _, ran := newRunConfig(t, got, []string{"--size", "4", "--blocks", "0"}, ""); ran && got.Net.Blocks != 0 || got.Size != 4 {
		t.Errorf("--blocks 0: %dx%d with %d blocks; want 4x4 with 0", got.Size, got.Size, got.Net.Blocks)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--rescore-stones", "-1"}, "rescore stones -1: want 0 (off) or more"},
		{[]string{"--random-plies", "-1"}, "random plies -1: want 0 (none) or more"},
		{[]string{"--games-per-gen", "0"}, "games per generation 0"},
		{[]string{"--batch", "0"}, "batch 0"},
		{[]string{"--filters", "0"}, "0 filters"},
		{[]string{"--full-prob", "0"}, "FullFraction 0"},
	} {
		newRunConfig(t, got, tc.args, tc.want)
	}
}

// TestTrainResumesSolveStones: an 8x8 run saved before self-play's
// default SolveStones became 27 (with mcts's 30) resumes with its 30; a
// new 8x8 run takes 27.
func TestTrainResumesSolveStones(t *testing.T) {
	got := captureTrainConfig(t)
	old := selfplay.DefaultConfig(8)
	old.Game.MCTS.SolveStones = mcts.DefaultSolveStones
	b, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	saved := t.TempDir()
	if err := os.WriteFile(filepath.Join(saved, "config.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"--run", saved}, mcts.DefaultSolveStones},
		{[]string{"--run", filepath.Join(t.TempDir(), "new"), "--size", "8"}, 27},
	} {
		*got = selfplay.Config{}
		var out bytes.Buffer
		if err := runCmd(append([]string{"train"}, tc.args...), &out); err != nil {
			t.Fatalf("train %v: %v\n%s", tc.args, err, out.String())
		}
		if got.Game.MCTS.SolveStones != tc.want {
			t.Errorf("train %v: SolveStones %d, want %d", tc.args, got.Game.MCTS.SolveStones, tc.want)
		}
	}
}
