package selfplay

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/konanezero/konane/net/train"
	"github.com/konanezero/konane/runfiles"

	"github.com/konanezero/konane/net"
)

func TestParseSchedule(t *testing.T) {
	for _, size := range []int{4, 6, 7, 8} {
		s := DefaultSchedule(size)
		if err := s.Validate(); err != nil {
			t.Fatalf("default schedule of %dx%d: %v", size, size, err)
		}
		back, err := ParseSchedule(s.String())
		if err != nil || !reflect.DeepEqual(back, s) {
			t.Errorf("%dx%d: %q read back as %v, %v", size, size, s.String(), back, err)
		}
		if err := DefaultConfig(size).Validate(); err != nil {
			t.Errorf("default config of %dx%d: %v", size, size, err)
		}
	}
	if s, err := ParseSchedule("none"); s != nil || err != nil {
		t.Errorf("none: %v, %v", s, err)
	}
	s, err := ParseSchedule("1:lr=0.02; 10:lr=0.002,children=2")
	if want := (Schedule{{1, 0.02, 0}, {10, 0.002, 2}}); err != nil || !reflect.DeepEqual(s, want) {
		t.Errorf("got %v, %v; want %v", s, err, want)
	}
	for _, bad := range []string{"", "2:lr=0.02", "1:lr=0.02;1:lr=0.01", "1:lr=0", "1:children=2", "1:lr=0.02,speed=3", "x:lr=1", "1:lr=0.02,children=-1"} {
		if _, err := ParseSchedule(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if st, ok := s.At(9); !ok || st.LR != 0.02 {
		t.Errorf("At(9) = %v, %v", st, ok)
	}
	if st, ok := s.At(10); !ok || st.LR != 0.002 || st.RescoreChildren != 2 {
		t.Errorf("At(10) = %v, %v", st, ok)
	}
	if _, ok := Schedule(nil).At(5); ok {
		t.Error("empty schedule has a stage")
	}
	// Children where nothing is rescored are refused.
	c := DefaultConfig(8)
	c.Schedule = Schedule{{From: 1, LR: 0.02}, {From: 5, LR: 0.02, RescoreChildren: 2}}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "generation 5") {
		t.Errorf("children without rescoring: %v", err)
	}
}

// checkpointLR is the learning rate saved in the run's checkpoint of
// generation gen.
func checkpointLR(t *testing.T, dir string, cfg Config, gen int) float64 {
	t.Helper()
	m, err := net.New(cfg.Net, 1)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := train.New(m, cfg.Train)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.LoadCheckpoint(filepath.Join(dir, "checkpoints", runfiles.CheckpointName(gen))); err != nil {
		t.Fatal(err)
	}
	return tr.Options().LR
}

// TestScheduleRunResumesExactly: a run whose schedule changes the learning
// rate and the rescored children comes out the same whole, and stopped
// and resumed at the change; each generation trains at its stage's rate.
func TestScheduleRunResumesExactly(t *testing.T) {
	cfg := tinyConfig()
	cfg.Schedule = Schedule{{From: 1, LR: 0.02}, {From: 2, LR: 0.005}, {From: 3, LR: 0.001, RescoreChildren: 2}}
	ctx := context.Background()
	quiet := func(string, ...any) {}

	whole := t.TempDir()
	cfg.Generations = 3
	mustRun(t, whole, cfg)
	split := t.TempDir()
	cfg.Generations = 2
	mustRun(t, split, cfg)
	cfg.Generations = 3
	mustRun(t, split, cfg)
	sameOutputs(t, whole, split)
	for gen, want := range map[int]float64{2: 0.005, 3: 0.001} {
		if lr := checkpointLR(t, split, cfg, gen); lr != want {
			t.Errorf("generation %d trained at %v, want %v", gen, lr, want)
		}
	}
	// Children appear from generation 3 only: its shard has value-only
	// samples, generation 2's none.
	d := NewRunDir(split)
	d.run = cfg.Seed // the run's identity, which its shards carry
	for gen, want := range map[int]bool{2: false, 3: true} {
		samples, _, err := d.readShard(gen, cfg.Size, "")
		if err != nil {
			t.Fatal(err)
		}
		children := false
		for _, s := range samples {
			children = children || len(s.Policy) == 0
		}
		if children != want {
			t.Errorf("generation %d: value-only samples %v, want %v", gen, children, want)
		}
	}
	// The schedule is part of the run's identity.
	cfg.Schedule = cfg.Schedule[:2]
	if err := Run(ctx, split, cfg, train.New, Hooks{}, quiet); err == nil || !strings.Contains(err.Error(), "schedule") {
		t.Errorf("changed schedule: err = %v, want a refusal naming the schedule", err)
	}
}

// TestRunWithoutSchedule: a config.json without a schedule (every run
// made before schedules) trains at its constant rate and resumes with the
// saved configuration unchanged.
func TestRunWithoutSchedule(t *testing.T) {
	cfg := tinyConfig()
	cfg.Schedule = nil
	cfg.Train.LR = 0.01
	ctx := context.Background()
	quiet := func(string, ...any) {}
	dir := t.TempDir()
	cfg.Generations = 1
	mustRun(t, dir, cfg)
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(b, &fields); err != nil {
		t.Fatal(err)
	}
	if _, ok := fields["schedule"]; ok {
		t.Fatalf("config.json of a run without a schedule has one: %s", b)
	}
	saved, err := NewRunDir(dir).ReadConfig()
	if err != nil || saved.Schedule != nil {
		t.Fatalf("read back schedule %v, %v; want none", saved.Schedule, err)
	}
	saved.Generations = 2
	mustRun(t, dir, saved)
	if lr := checkpointLR(t, dir, cfg, 2); lr != 0.01 {
		t.Errorf("generation 2 trained at %v, want the constant 0.01", lr)
	}
	// The default schedule is refused on it: a run keeps its identity.
	withDefault := saved
	withDefault.Schedule = DefaultSchedule(4)
	if err := Run(ctx, dir, withDefault, train.New, Hooks{}, quiet); err == nil || !strings.Contains(err.Error(), "schedule") {
		t.Errorf("default schedule on an old run: err = %v", err)
	}
}
