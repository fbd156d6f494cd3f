package ladder

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/internal/lockfile"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/runfiles"
	"github.com/konanezero/konane/selfplay"
)

// testRun makes a run directory of 4x4 with the given generations, all
// copies of one tiny random network.
func testRun(t *testing.T, gens ...int) string {
	t.Helper()
	dir := t.TempDir()
	cfg, err := json.Marshal(selfplay.DefaultConfig(4)) // a run's config is read strictly
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	addModels(t, dir, gens...)
	return dir
}

func addModels(t *testing.T, dir string, gens ...int) {
	t.Helper()
	model, err := os.ReadFile(agenttest.TinyModelFile(t, 4))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "models"), 0o755)
	for _, g := range gens {
		if err := os.WriteFile(filepath.Join(dir, "models", runfiles.ModelName(g)), model, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func testConfig(t *testing.T) Config {
	c := DefaultConfig()
	c.Games, c.Rungs, c.Sims, c.Positions, c.Parallel = 4, 1, 4, 10, 2
	c.Anchors = nil
	for _, text := range []string{"random", "greedy"} {
		s, err := player.ParseSpec(text)
		if err != nil {
			t.Fatal(err)
		}
		c.Anchors = append(c.Anchors, s)
	}
	return c
}

// gameFiles returns every kept game file and its contents.
func gameFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	paths, _ := filepath.Glob(filepath.Join(dir, runfiles.LadderDir, gamesDir, "*", "*.txt"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(filepath.Join(dir, runfiles.LadderDir), p)
		out[rel] = string(b)
	}
	return out
}

func update(t *testing.T, dir string, cfg Config) *Summary {
	t.Helper()
	sum, err := Update(context.Background(), dir, cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func TestUpdateIsIncremental(t *testing.T) {
	dir := testRun(t, 1, 2)
	cfg := testConfig(t)

	// First call: the anchors' pair, gen 1 against 2 anchors, gen 2
	// against 2 anchors and gen 1: 6 pairings of 4 games.
	sum := update(t, dir, cfg)
	if sum.Kept != 0 || sum.Played != 24 || len(sum.Rated) != 2 {
		t.Fatalf("first call: kept %d, played %d, rated %v; want 0, 24, [1 2]", sum.Kept, sum.Played, sum.Rated)
	}
	first := gameFiles(t, dir)
	if len(first) != 24 {
		t.Fatalf("%d game files kept, want 24", len(first))
	}
	if sum.RatingsErr != nil || len(sum.Rows) != 4 {
		t.Fatalf("ratings: %v, %d rows; want 4 rows", sum.RatingsErr, len(sum.Rows))
	}
	for _, name := range []string{runfiles.RatingsFile, PlotFile, criticalFile, runfiles.SolverFile, settingsFile} {
		if _, err := os.Stat(filepath.Join(dir, runfiles.LadderDir, name)); err != nil {
			t.Errorf("missing output: %v", err)
		}
	}

	// A new generation: only its games are played (2 anchors, 1 rung).
	addModels(t, dir, 3)
	sum = update(t, dir, cfg)
	if sum.Kept != 24 || sum.Played != 12 || len(sum.Rated) != 1 || sum.Rated[0] != 3 {
		t.Fatalf("second call: kept %d, played %d, rated %v; want 24, 12, [3]", sum.Kept, sum.Played, sum.Rated)
	}
	second := gameFiles(t, dir)
	for name, text := range first {
		if second[name] != text {
			t.Errorf("kept game %s changed", name)
		}
	}

	// Nothing new: nothing played.
	if sum = update(t, dir, cfg); sum.Played != 0 || len(sum.Rated) != 0 || sum.Kept != 36 {
		t.Fatalf("third call: kept %d, played %d, rated %v; want 36, 0, []", sum.Kept, sum.Played, sum.Rated)
	}

	// Lost games (an interrupted call) are played again, and only they,
	// exactly as the first time.
	lost := []string{filepath.Join(gamesDir, "gen-000002_vs_greedy", "00003.txt"), filepath.Join(gamesDir, "random_vs_greedy", "00001.txt")}
	for _, l := range lost {
		if err := os.Remove(filepath.Join(dir, runfiles.LadderDir, l)); err != nil {
			t.Fatal(err)
		}
	}
	if sum = update(t, dir, cfg); sum.Played != len(lost) {
		t.Fatalf("after losing %d games: played %d", len(lost), sum.Played)
	}
	if again := gameFiles(t, dir); !equalMaps(again, second) {
		t.Error("the games played again differ from the lost ones")
	}

	// More games per pairing: the first 4 stay, 2 more each, and the
	// result is what a ladder of 6 games from scratch keeps.
	cfg.Games = 6
	if sum = update(t, dir, cfg); sum.Played != 9*2 {
		t.Fatalf("--games 6: played %d, want 18", sum.Played)
	}
	fresh := testRun(t, 1, 2, 3)
	update(t, fresh, cfg)
	if a, b := gameFiles(t, dir), gameFiles(t, fresh); !equalMaps(a, b) {
		t.Errorf("incremental ladder kept %d games, a fresh one %d, or they differ", len(a), len(b))
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestUpdateEvery(t *testing.T) {
	dir := testRun(t, 1, 2, 3, 4, 5)
	cfg := testConfig(t)
	cfg.Every, cfg.Positions, cfg.Games = 2, 0, 2
	sum := update(t, dir, cfg)
	if len(sum.Rated) != 2 || sum.Rated[0] != 2 || sum.Rated[1] != 4 {
		t.Fatalf("--every 2 rated %v, want [2 4]", sum.Rated)
	}
	var players []string
	for _, r := range sum.Rows {
		players = append(players, r.Player)
	}
	if got := strings.Join(players, " "); got != "random greedy gen-000002 gen-000004" {
		t.Errorf("players %q", got)
	}
	// --generations 1 leaves the rest for later.
	cfg.Every, cfg.Generations = 1, 1
	if sum = update(t, dir, cfg); len(sum.Rated) != 1 || sum.Rated[0] != 1 || sum.Pending != 4 {
		t.Errorf("--generations 1: rated %v, %d pending; want [1], 4 pending (2 and 4 now have rungs 1 and 3; 3 and 5 are new)", sum.Rated, sum.Pending)
	}
}

func TestUpdateRefuses(t *testing.T) {
	dir := testRun(t, 1)
	cfg := testConfig(t)
	cfg.Positions, cfg.Games = 0, 2
	update(t, dir, cfg)

	l, err := lockfile.Acquire(filepath.Join(dir, filepath.FromSlash(runfiles.LadderLockKey)))
	if err != nil {
		t.Fatal(err)
	}
	var busy *lockfile.BusyError
	if _, err := Update(context.Background(), dir, cfg, nil); !errors.As(err, &busy) {
		t.Errorf("while locked: got %v, want a *lockfile.BusyError", err)
	}
	l.Release()

	other := cfg
	other.Sims = 8
	var se *SettingsError
	if _, err := Update(context.Background(), dir, other, nil); !errors.As(err, &se) || !strings.Contains(err.Error(), "sims 4") {
		t.Errorf("other sims: got %v, want a *SettingsError naming sims 4", err)
	}

	path := filepath.Join(dir, runfiles.LadderDir, gamesDir, "gen-000001_vs_greedy", "00002.txt")
	if err := os.WriteFile(path, []byte("[Size \"4\"]\n\n1. a1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Update(context.Background(), dir, cfg, nil); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("corrupt game: got %v, want an error naming %s", err, path)
	}

	if _, err := Update(context.Background(), t.TempDir(), cfg, nil); err == nil || !strings.Contains(err.Error(), "no training run") {
		t.Errorf("no run: got %v", err)
	}
}

func TestConfigValidate(t *testing.T) {
	// A model file is a fixed player too (the shipped model as a rung).
	withModel := DefaultConfig()
	withModel.Anchors = append(withModel.Anchors, player.Spec{Kind: player.KindModel, Model: "m.safetensors", Sims: 64, Name: "shipped"})
	if err := withModel.Validate(); err != nil {
		t.Errorf("model anchor: %v", err)
	}
	for _, tc := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Games = 0 }, "games"},
		{func(c *Config) { c.Every = 0 }, "every"},
		{func(c *Config) { c.Anchor = "nobody" }, "nobody"},
		{func(c *Config) { c.Anchors = nil }, "no anchor"},
		{func(c *Config) {
			c.Anchors = append(c.Anchors, player.Spec{Kind: player.KindRandom, Name: "gen-000003"})
		}, "generation"},
		{func(c *Config) { c.Anchors = append(c.Anchors, player.Spec{Kind: player.KindRandom, Name: "random"}) }, "same file name"},
		{func(c *Config) {
			c.Anchors = append(c.Anchors, player.Spec{Kind: player.KindModel, Model: "m.safetensors", Sims: 64, Settings: map[string]string{"level": "hard"}, Name: "shipped"})
		}, "sims=N only"},
		{func(c *Config) {
			c.Anchors = append(c.Anchors, player.Spec{Kind: player.KindModel, Model: "m.safetensors", Sims: 64, Settings: map[string]string{"ptemp": "0.5"}, Name: "shipped"})
		}, "sims=N only"},
	} {
		c := DefaultConfig()
		tc.edit(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want an error containing %q", err, tc.want)
		}
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Error(err)
	}
}

func TestRatingsRoundTrip(t *testing.T) {
	dir := testRun(t, 1, 2)
	// The run's metrics: the games, wall and CPU time of each generation.
	ms := []runfiles.Metrics{{Generation: 1, Games: 8, WallSecs: 1800, CPUSecs: 3000}, {Generation: 2, Games: 8, WallSecs: 3600, CPUSecs: 1500}}
	if err := os.WriteFile(filepath.Join(dir, runfiles.MetricsFile), runfiles.EncodeMetrics(ms), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.Games = 2
	sum := update(t, dir, cfg)
	data, err := os.ReadFile(filepath.Join(dir, runfiles.LadderDir, runfiles.RatingsFile))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := runfiles.ParseRatings(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(sum.Rows) {
		t.Fatalf("%d rows read back, want %d", len(rows), len(sum.Rows))
	}
	for i, r := range rows {
		w := sum.Rows[i]
		if r.Player != w.Player || r.Generation != w.Generation || r.Games != w.Games || r.SolverKept != w.SolverKept ||
			abs(r.Elo-w.Elo) > 1e-3 || abs(r.High-w.High) > 1e-3 {
			t.Errorf("row %d read back as %+v, want %+v", i, r, w)
		}
	}
	// Games and CPU time are summed up to the generation; wall time is
	// the run's at its end.
	for _, r := range rows {
		want := map[int][3]float64{1: {8, 0.5, 3000.0 / 3600}, 2: {16, 1, 4500.0 / 3600}}[r.Generation]
		if !r.Anchor && (r.SelfplayGames != want[0] || abs(r.Hours-want[1]) > 1e-4 || abs(r.CPUHours-want[2]) > 1e-4) {
			t.Errorf("%s: %v games, %v hours, %v CPU hours, want %v", r.Player, r.SelfplayGames, r.Hours, r.CPUHours, want)
		}
	}
	names := make([]string, 0)
	for _, r := range rows {
		names = append(names, r.Player)
	}
	if !sort.SliceIsSorted(names[2:], func(i, j int) bool { return names[2+i] < names[2+j] }) {
		t.Errorf("generations out of order: %v", names)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestUpdateModelAnchor: a model file (the shipped model, say) is an
// anchor: it plays the anchors and the generations, and is rated.
func TestUpdateModelAnchor(t *testing.T) {
	dir := testRun(t, 1)
	cfg := testConfig(t)
	cfg.Positions, cfg.Games = 0, 2
	s, err := player.ParseSpec("model:" + agenttest.TinyModelFile(t, 4) + ",sims=4,name=shipped")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Anchors = append(cfg.Anchors, s)
	sum := update(t, dir, cfg)
	var players []string
	for _, r := range sum.Rows {
		players = append(players, r.Player)
	}
	if got := strings.Join(players, " "); !strings.Contains(got, "shipped") || !strings.Contains(got, "gen-000001") {
		t.Errorf("players %q, want the model anchor and the generation", got)
	}
}
