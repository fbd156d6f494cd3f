package dashboard

import (
	"context"
	"encoding/json"
	"errors"
	"html"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/chart"
	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net/train"
	"github.com/konanezero/konane/runfiles"
	"github.com/konanezero/konane/selfplay"
)

// tinyConfig is a training run small enough for tests: 4x4, a tiny net,
// few simulations.
func tinyConfig(gens int) selfplay.Config {
	c := selfplay.DefaultConfig(4)
	c.Net.Filters, c.Net.Blocks, c.Net.ValueHidden = 8, 1, 8
	c.Game.Cap = mcts.PlayoutCap{FullSims: 8, FastSims: 4, FullFraction: 0.5}
	c.GamesPerGen, c.Parallel, c.EvalBatch = 2, 2, 2
	c.Train.Batch = 8
	c.MinWindow, c.MaxWindow = 50, 400
	c.Generations = gens
	return c
}

func trainRun(t *testing.T, dir string, gens int) {
	t.Helper()
	if err := selfplay.Run(context.Background(), dir, tinyConfig(gens), train.New, selfplay.Hooks{}, t.Logf); err != nil {
		t.Fatal(err)
	}
}

// writeRatings gives the run a ladder of two anchors and its generations.
func writeRatings(t *testing.T, dir string, gens int) {
	t.Helper()
	rows := []runfiles.Rating{
		{Player: "random", Anchor: true, SelfplayGames: math.NaN(), Hours: math.NaN(), Games: 8, Wins: 2,
			SolverPositions: 10, SolverKept: 5, SolverRate: 0.5, SolverLow: 0.2, SolverHigh: 0.8, SolverRandom: 0.45},
		{Player: "greedy", Anchor: true, Elo: 150, Low: 50, High: 250, SE: 50, SelfplayGames: math.NaN(), Hours: math.NaN(), Games: 8, Wins: 5,
			SolverRate: math.NaN(), SolverLow: math.NaN(), SolverHigh: math.NaN(), SolverRandom: math.NaN()},
	}
	for g := 1; g <= gens; g++ {
		rows = append(rows, runfiles.Rating{Player: runfiles.GenDir(g), Generation: g, SelfplayGames: float64(4 * g), Hours: 0.01 * float64(g),
			Elo: 40 * float64(g), Low: 40*float64(g) - 90, High: 40*float64(g) + 90, SE: 45, Games: 8, Wins: 4,
			SolverPositions: 10, SolverKept: 5 + g, SolverRate: float64(5+g) / 10, SolverLow: 0.3, SolverHigh: 0.9, SolverRandom: 0.45})
	}
	os.MkdirAll(filepath.Join(dir, runfiles.LadderDir), 0o755)
	if err := atomicfile.Write(filepath.Join(dir, runfiles.LadderDir, runfiles.RatingsFile), 0o644, func(w io.Writer) error {
		return runfiles.WriteRatings(w, rows)
	}); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, h http.Handler, method, target string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(method, target, nil))
	return w
}

func getStatus(t *testing.T, h http.Handler) Status {
	t.Helper()
	w := get(t, h, "GET", "/api/status")
	if w.Code != http.StatusOK {
		t.Fatalf("/api/status: %d %s", w.Code, w.Body)
	}
	var st Status
	if err := json.Unmarshal(w.Body.Bytes(), &st); err != nil {
		t.Fatalf("/api/status: %v in %s", err, w.Body)
	}
	return st
}

func getCharts(t *testing.T, h http.Handler) []Chart {
	t.Helper()
	w := get(t, h, "GET", "/api/charts")
	if w.Code != http.StatusOK {
		t.Fatalf("/api/charts: %d %s", w.Code, w.Body)
	}
	var cs []Chart
	if err := json.Unmarshal(w.Body.Bytes(), &cs); err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestAPI(t *testing.T) {
	dir := t.TempDir()
	h := New(os.DirFS(dir), Options{Name: "test run"})

	// Before the run starts: an empty dashboard, no error.
	st := getStatus(t, h)
	if st.Generation != 0 || (st.Config != nil && string(st.Config) != "null") || st.Ladder != nil || len(st.Errors) != 0 || st.Name != "test run" {
		t.Errorf("empty run: %+v", st)
	}
	if cs := getCharts(t, h); len(cs) != 0 {
		t.Errorf("empty run: %d charts", len(cs))
	}

	trainRun(t, dir, 1)
	writeRatings(t, dir, 2)
	st = getStatus(t, h)
	if st.Generation != 1 || st.GamesPerGen != 2 || st.Games != 2 || st.Size != 4 || st.Last["policy_loss"] <= 0 || st.Updated == "" {
		t.Errorf("after 1 generation: %+v", st)
	}
	if st.Ladder == nil || st.Ladder.Rated != 2 || st.Ladder.Latest != "gen-000002" || st.Ladder.Elo != 80 || st.Ladder.Best != "gen-000002" {
		t.Errorf("ladder summary: %+v", st.Ladder)
	}
	var cfg selfplay.Config
	if err := json.Unmarshal(st.Config, &cfg); err != nil || cfg.GamesPerGen != 2 {
		t.Errorf("config: %v, %+v", err, cfg)
	}
	cs := getCharts(t, h)
	metrics, ladders := 0, 0
	for _, c := range cs {
		if !strings.HasPrefix(c.SVG, "<svg") || !strings.Contains(c.SVG, html.EscapeString(c.Title)) {
			t.Errorf("chart %s: not an SVG titled %q", c.ID, c.Title)
		}
		switch {
		case strings.HasPrefix(c.ID, "metrics-"):
			metrics++
		case strings.HasPrefix(c.ID, "ladder-"):
			ladders++
		}
	}
	if metrics != len(chart.MetricsPanels(nil)) || ladders != 4 {
		t.Errorf("%d metrics and %d ladder charts, want %d and 4", metrics, ladders, len(chart.MetricsPanels(nil)))
	}

	// A new generation changes the version, and the charts with it.
	before := st.Version
	trainRun(t, dir, 2)
	st = getStatus(t, h)
	if st.Version == before || st.Generation != 2 {
		t.Errorf("after generation 2: version %q (was %q), generation %d", st.Version, before, st.Generation)
	}
	if cs2 := getCharts(t, h); cs2[0].SVG == cs[0].SVG {
		t.Error("the charts did not change with a new generation")
	}

	// A damaged file is reported, not fatal.
	if err := os.WriteFile(filepath.Join(dir, runfiles.LadderDir, runfiles.RatingsFile), []byte("nonsense\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st = getStatus(t, h); len(st.Errors) != 1 || !strings.Contains(st.Errors[0], "ratings.csv") || st.Generation != 2 {
		t.Errorf("damaged ratings: %+v", st.Errors)
	}
}

func TestHTTP(t *testing.T) {
	h := New(os.DirFS(t.TempDir()), Options{})
	for _, tc := range []struct {
		method, target string
		code           int
		ctype          string
	}{
		{"GET", "/", 200, "text/html"},
		{"HEAD", "/", 200, "text/html"},
		{"GET", "/app.js", 200, "text/javascript"},
		{"GET", "/style.css", 200, "text/css"},
		{"GET", "/api/status", 200, "application/json"},
		{"GET", "/api/charts", 200, "application/json"},
		{"POST", "/api/status", 405, ""},
		{"DELETE", "/", 405, ""},
		{"GET", "/config.json", 404, ""},
		{"GET", "/../config.json", 307, ""}, // to /config.json, not found
	} {
		w := get(t, h, tc.method, tc.target)
		if w.Code != tc.code || !strings.HasPrefix(w.Header().Get("Content-Type"), tc.ctype) {
			t.Errorf("%s %s: %d %q, want %d %q", tc.method, tc.target, w.Code, w.Header().Get("Content-Type"), tc.code, tc.ctype)
		}
		if csp := w.Header().Get("Content-Security-Policy"); tc.code != 405 && !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("%s %s: Content-Security-Policy %q", tc.method, tc.target, csp)
		}
	}
	page := get(t, New(os.DirFS(t.TempDir()), Options{Refresh: 1500 * 1e6}), "GET", "/").Body.String()
	if !strings.Contains(page, `data-refresh-ms="1500"`) || strings.Contains(page, "http://") || strings.Contains(page, "https://") {
		t.Error("the page does not carry the refresh interval, or links an external resource")
	}
}

// TestStale: a run that writes nothing for longer than its pace allows is
// reported stopped, not live; a new game makes it live again.
func TestStale(t *testing.T) {
	dir := t.TempDir()
	trainRun(t, dir, 1)
	now := time.Now()
	clock := func() time.Time { return now }
	h := New(os.DirFS(dir), Options{Now: clock})
	if st := getStatus(t, h); st.Stale || st.Activity == "" {
		t.Errorf("just trained: stale %v, activity %q", st.Stale, st.Activity)
	}
	now = now.Add(11 * time.Minute)
	st := getStatus(t, h)
	if !st.Stale {
		t.Errorf("11 minutes without news: not stale (activity %s)", st.Activity)
	}
	// A game of the next generation is news.
	gen := filepath.Join(dir, "games", "gen-000002")
	if err := os.MkdirAll(gen, 0o755); err != nil {
		t.Fatal(err)
	}
	game := filepath.Join(gen, "game-1.txt")
	if err := os.WriteFile(game, []byte("[Size \"4\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(game, now, now)
	if st := getStatus(t, h); st.Stale || st.GamesDone != 1 {
		t.Errorf("a new game: stale %v, %d games done", st.Stale, st.GamesDone)
	}
	// The page says so.
	js := get(t, h, "GET", "/app.js").Body.String()
	if !strings.Contains(js, "st.state") || !strings.Contains(js, "not training") {
		t.Error("app.js does not show a stale run")
	}
}

// TestLiveness: with the run's locks to ask (Options.Holder), a run whose
// trainer exited or finished is stopped at once, however fresh its last
// data (issue 45: the page said "live" until ten minutes had passed); a
// trainer that holds the run but writes nothing is quiet; a ladder
// rating after the training is reported. The ladder's latest rating
// names its generation.
func TestLiveness(t *testing.T) {
	dir := t.TempDir()
	trainRun(t, dir, 1)
	writeRatings(t, dir, 1)
	now := time.Now()
	held := map[string]int{}
	h := New(os.DirFS(dir), Options{Now: func() time.Time { return now }, Holder: func(key string) (int, error) { return held[key], nil }})
	check := func(what, state string, trainer, ladder int) {
		t.Helper()
		st := getStatus(t, h)
		if st.State != state || st.Stale != (state != StateTraining) || st.TrainerPID != trainer || st.LadderPID != ladder {
			t.Errorf("%s: state %q (stale %v), trainer %d, ladder %d; want %q, %d, %d", what, st.State, st.Stale, st.TrainerPID, st.LadderPID, state, trainer, ladder)
		}
	}
	check("trainer exited just after a generation", StateStopped, 0, 0)
	held[runfiles.LockFile] = 4242
	check("trainer holds the run", StateTraining, 4242, 0)
	now = now.Add(11 * time.Minute)
	check("trainer holds the run, no news for 11 minutes", StateQuiet, 4242, 0)
	held[runfiles.LockFile], held[runfiles.LadderLockKey] = 0, 77
	check("training over, the ladder rating", StateStopped, 0, 77)
	if st := getStatus(t, h); st.Ladder == nil || st.Ladder.Latest != "gen-000001" || st.Ladder.Generation != 1 {
		t.Errorf("ladder summary %+v: want its latest rating to name generation 1", st.Ladder)
	}
	// Without the locks (a run on another machine) the age of the data
	// decides alone, as TestStale.
	h = New(os.DirFS(dir), Options{Now: func() time.Time { return now }})
	check("no holder known, no news for 11 minutes", StateQuiet, 0, 0)
	// An error reading a lock is shown, not fatal, and the age decides.
	h = New(os.DirFS(dir), Options{Now: func() time.Time { return now }, Holder: func(key string) (int, error) { return 0, errors.New("unreadable") }})
	if st := getStatus(t, h); len(st.Errors) != 2 || !strings.Contains(st.Errors[0], "unreadable") || st.State != StateQuiet {
		t.Errorf("unreadable locks: state %q, errors %q", st.State, st.Errors)
	}
}
