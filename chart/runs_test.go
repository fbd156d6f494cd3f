package chart

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/konanezero/konane/runfiles"
)

// TestSolverLegendRandomOnce: the solver check's legend names the random
// mover once, with its expected and its measured rate.
func TestSolverLegendRandomOnce(t *testing.T) {
	nan := math.NaN()
	rows := []runfiles.Rating{
		{Player: "random", Anchor: true, SelfplayGames: nan, Hours: nan, SolverPositions: 30, SolverKept: 20,
			SolverRate: 0.67, SolverLow: 0.5, SolverHigh: 0.8, SolverRandom: 0.53},
		{Player: "greedy", Anchor: true, SelfplayGames: nan, Hours: nan, SolverPositions: 30, SolverKept: 24,
			SolverRate: 0.8, SolverLow: 0.6, SolverHigh: 0.9, SolverRandom: 0.53},
		{Player: "gen-000001", Generation: 1, SelfplayGames: 8, Hours: 0.1, SolverPositions: 30, SolverKept: 27,
			SolverRate: 0.9, SolverLow: 0.75, SolverHigh: 0.96, SolverRandom: 0.53},
	}
	ps := RatingsPanels(rows, "random")
	solver := ps[len(ps)-1]
	if solver.Title != "solver check" {
		t.Fatalf("last panel %q", solver.Title)
	}
	var names []string
	randoms := 0
	for _, l := range solver.Levels {
		names = append(names, l.Name)
		if strings.Contains(l.Name, "random") {
			randoms++
		}
	}
	if randoms != 1 || !strings.Contains(strings.Join(names, "; "), "random (53% expected, 67% measured)") {
		t.Errorf("solver legend %q: want the random mover once", names)
	}
}

// TestAnchorNames: the ladder's legends name the anchors by kind and
// depth, not by their raw engine specs.
func TestAnchorNames(t *testing.T) {
	nan := math.NaN()
	rows := []runfiles.Rating{
		{Player: "pvs:depth=8,eval=4/4/0/0/4/0", Anchor: true, Elo: 900, SelfplayGames: nan, Hours: nan, CPUHours: nan},
		{Player: "alphabeta:depth=2", Anchor: true, Elo: 300, SelfplayGames: nan, Hours: nan, CPUHours: nan},
		{Player: "model:runs/x/model.safetensors,level=medium", Anchor: true, Elo: 500, SelfplayGames: nan, Hours: nan, CPUHours: nan},
		{Player: "greedy", Anchor: true, Elo: 100, SelfplayGames: nan, Hours: nan, CPUHours: nan},
		{Player: "gen-000001", Generation: 1, SelfplayGames: 8, Hours: 0.1, CPUHours: nan, Elo: 10, Low: 0, High: 20},
	}
	var names []string
	for _, l := range RatingsPanels(rows, "greedy")[0].Levels {
		names = append(names, l.Name)
	}
	if got, want := strings.Join(names, "; "), "pvs depth 8 (+900); alphabeta depth 2 (+300); model level medium (+500); greedy (+100)"; got != want {
		t.Errorf("legend %q, want %q", got, want)
	}
}

// TestFormatHoursShortRun: a short run's generations get distinct time
// labels, not "0 min" under every tick.
func TestFormatHoursShortRun(t *testing.T) {
	for _, c := range []struct {
		secs float64
		want string
	}{{12, "12 s"}, {47.4, "47 s"}, {95, "1.6 min"}, {330, "5.5 min"}, {1500, "25 min"}, {5400, "1.5 h"}} {
		if got := formatHours(c.secs); got != c.want {
			t.Errorf("formatHours(%v) = %q, want %q", c.secs, got, c.want)
		}
	}
}

// TestAuxLossSeries: the losses panel shows the auxiliary heads' losses
// only for a run that trains them, with a gap where a generation has none.
func TestAuxLossSeries(t *testing.T) {
	ms := []runfiles.Metrics{{Generation: 1, PolicyLoss: 2, ValueLoss: 1}, {Generation: 2, PolicyLoss: 1.5, ValueLoss: 0.9}}
	names := func(ms []runfiles.Metrics) (out []string) {
		for _, s := range MetricsPanels(ms)[0].Series {
			out = append(out, s.Name)
		}
		return out
	}
	if got := names(ms); !slices.Equal(got, []string{"policy", "value"}) {
		t.Errorf("without auxiliary heads: series %v", got)
	}
	ms[1].OwnershipLoss, ms[1].MovesLeftLoss = 0.3, 0.05
	if got := names(ms); !slices.Equal(got, []string{"policy", "value", "ownership", "moves left"}) {
		t.Errorf("with auxiliary heads: series %v", got)
	}
	own := MetricsPanels(ms)[0].Series[2].Y
	if !math.IsNaN(own[0]) || own[1] != 0.3 {
		t.Errorf("ownership loss %v, want a gap then 0.3", own)
	}
}

// TestRatingsTimeAxis: strength by training time is drawn against the
// run's CPU hours where the ratings have them, else the wall clock.
func TestRatingsTimeAxis(t *testing.T) {
	rows := []runfiles.Rating{
		{Player: "random", Anchor: true, SelfplayGames: math.NaN(), Hours: math.NaN(), CPUHours: math.NaN()},
		{Player: "gen-000001", Generation: 1, SelfplayGames: 8, Hours: 0.5, CPUHours: math.NaN(), Elo: 10, Low: 0, High: 20},
		{Player: "gen-000002", Generation: 2, SelfplayGames: 16, Hours: 1, CPUHours: math.NaN(), Elo: 30, Low: 20, High: 40},
	}
	p := RatingsPanels(rows, "random")[2]
	if p.XLabel != "training time (wall-clock hours)" || !slices.Equal(p.Series[0].X, []float64{0.5, 1}) {
		t.Errorf("without CPU hours: %q, x %v", p.XLabel, p.Series[0].X)
	}
	rows[1].CPUHours, rows[2].CPUHours = 0.8, 1.7
	p = RatingsPanels(rows, "random")[2]
	if p.XLabel != "training time (the run's CPU hours)" || !slices.Equal(p.Series[0].X, []float64{0.8, 1.7}) {
		t.Errorf("with CPU hours: %q, x %v", p.XLabel, p.Series[0].X)
	}
}

// TestBoardPanels: a multi-board run's metrics get a panel per
// per-board quantity, a series per board; a single-board run's none.
func TestBoardPanels(t *testing.T) {
	ms := []runfiles.Metrics{{Generation: 1}, {Generation: 2}}
	single := len(MetricsPanels(ms))
	ms[0].Boards = []runfiles.BoardMetrics{{Board: "6x6", PolicyLoss: 1.5, ValueLoss: 0.9, GameLength: 20}, {Board: "7x6", PolicyLoss: 1.7}}
	ms[1].Boards = []runfiles.BoardMetrics{{Board: "6x6", PolicyLoss: 1.2}, {Board: "7x6", PolicyLoss: 1.6}}
	ps := MetricsPanels(ms)
	if len(ps) != single+3 {
		t.Fatalf("%d panels, want %d + 3", len(ps), single)
	}
	pol := ps[single]
	if len(pol.Series) != 2 || pol.Series[0].Name != "6x6" || pol.Series[1].Y[1] != 1.6 {
		t.Errorf("policy loss by board: %+v", pol.Series)
	}
	if v := ps[single+1].Series[0].Y[1]; !math.IsNaN(v) {
		t.Errorf("a value loss of 0 (not measured) is %v, want a gap", v)
	}
}
