package chart

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/konanezero/konane/runfiles"
)

// MetricsPanels are the learning curves of a run, one panel per quantity
// (losses, with the auxiliary heads' when the run trains them, and
// entropy; game length and Black's wins; throughput), against the
// generation with the hours of training under each tick.
func MetricsPanels(all []runfiles.Metrics) []Panel {
	gens := make([]float64, len(all))
	for i, m := range all {
		gens[i] = float64(m.Generation)
	}
	get := func(f func(runfiles.Metrics) float64) []float64 {
		out := make([]float64, len(all))
		for i, m := range all {
			out[i] = f(m)
		}
		return out
	}
	series := func(name string, f func(runfiles.Metrics) float64) Series {
		return Series{Name: name, X: gens, Y: get(f), Smooth: true}
	}
	hours := func(x float64) string {
		i := sort.Search(len(all), func(i int) bool { return float64(all[i].Generation) >= x })
		if i == len(all) || float64(all[i].Generation) != x {
			return ""
		}
		return formatHours(all[i].WallSecs)
	}
	panel := func(title, ylabel string, s ...Series) Panel {
		return Panel{Title: title, XLabel: "generation / training time", YLabel: ylabel, Series: s, IntegerX: true, Second: hours}
	}
	// A speed of 0 was not measured (a generation whose games were all
	// played before a restart), nor is a length of 0 (a trainer fed by
	// workers knows its games' samples, not their plies): a gap in the
	// line.
	measured := func(f func(runfiles.Metrics) float64) func(runfiles.Metrics) float64 {
		return func(m runfiles.Metrics) float64 {
			if v := f(m); v > 0 {
				return v
			}
			return math.NaN()
		}
	}
	pct := func(f func(runfiles.Metrics) float64) func(runfiles.Metrics) float64 {
		return func(m runfiles.Metrics) float64 { return 100 * f(m) }
	}
	black := panel("Black's wins in self-play", "games won by Black (%)", series("Black", pct(func(m runfiles.Metrics) float64 { return m.BlackWinRate })))
	black.Levels = []Level{{Name: "even (50%)", Y: 50}}
	losses := []Series{series("policy", func(m runfiles.Metrics) float64 { return m.PolicyLoss }), series("value", func(m runfiles.Metrics) float64 { return m.ValueLoss })}
	// The auxiliary heads' and the soft policy head's losses, for a run
	// that trains them (0 in the generations before they were on, a gap).
	for _, aux := range []struct {
		name string
		f    func(runfiles.Metrics) float64
	}{
		{"ownership", func(m runfiles.Metrics) float64 { return m.OwnershipLoss }},
		{"moves left", func(m runfiles.Metrics) float64 { return m.MovesLeftLoss }},
		{"soft policy KL", func(m runfiles.Metrics) float64 { return m.SoftPolicyKL }},
	} {
		for _, m := range all {
			if aux.f(m) > 0 {
				losses = append(losses, series(aux.name, measured(aux.f)))
				break
			}
		}
	}
	return append([]Panel{
		panel("training losses", "loss (nats)", losses...),
		panel("entropy of the search policy", "entropy (nats)", series("targets", func(m runfiles.Metrics) float64 { return m.PolicyEntropy })),
		panel("self-play game length", "plies per game", series("length", measured(func(m runfiles.Metrics) float64 { return m.GameLength }))),
		black.WithYRange(0, 100),
		panel("self-play speed", "games per hour", series("games/h", measured(func(m runfiles.Metrics) float64 { return m.GamesPerHour }))),
		panel("network evaluations", "positions per second", series("evals/s", measured(func(m runfiles.Metrics) float64 { return m.EvalsPerSec }))),
		panel("evaluator cache", "hits (% of lookups)", series("hits", pct(func(m runfiles.Metrics) float64 {
			if m.EvalsPerSec == 0 { // no self-play in the trainer's process
				return math.NaN()
			}
			return m.CacheHitRate
		}))).WithYRange(0, 100),
		panel("time per generation", "seconds",
			series("self-play", func(m runfiles.Metrics) float64 { return m.SelfplaySecs }), series("training", func(m runfiles.Metrics) float64 { return m.TrainSecs })),
	}, boardPanels(all, panel)...)
}

// boardPanels are the panels of a multi-board run's boards, a series per
// board (runfiles.BoardMetrics), after the others: none for a
// single-board run. A board's figure of 0 (no step or no game of it in a
// generation) is a gap.
func boardPanels(all []runfiles.Metrics, panel func(title, ylabel string, s ...Series) Panel) []Panel {
	var boards []string
	for _, m := range all {
		for _, b := range m.Boards {
			if !slices.Contains(boards, b.Board) {
				boards = append(boards, b.Board)
			}
		}
	}
	if len(boards) == 0 {
		return nil
	}
	gens := make([]float64, len(all))
	for i, m := range all {
		gens[i] = float64(m.Generation)
	}
	by := func(f func(runfiles.BoardMetrics) float64) []Series {
		var out []Series
		for _, board := range boards {
			y := make([]float64, len(all))
			for i, m := range all {
				y[i] = math.NaN()
				if k := slices.IndexFunc(m.Boards, func(b runfiles.BoardMetrics) bool { return b.Board == board }); k >= 0 {
					if v := f(m.Boards[k]); v > 0 {
						y[i] = v
					}
				}
			}
			out = append(out, Series{Name: board, X: gens, Y: y, Smooth: true})
		}
		return out
	}
	return []Panel{
		panel("policy loss by board", "loss (nats)", by(func(b runfiles.BoardMetrics) float64 { return b.PolicyLoss })...),
		panel("value loss by board", "loss", by(func(b runfiles.BoardMetrics) float64 { return b.ValueLoss })...),
		panel("self-play game length by board", "plies per game", by(func(b runfiles.BoardMetrics) float64 { return b.GameLength })...),
	}
}

// formatHours writes a training time for a tick label: seconds under a
// minute, minutes (a decimal under ten) under an hour, else hours.
func formatHours(secs float64) string {
	switch {
	case secs < 60:
		// A short run: minutes would read "0 min" under every tick.
		return strconv.Itoa(int(math.Round(secs))) + " s"
	case secs < 600:
		return strconv.FormatFloat(secs/60, 'f', 1, 64) + " min"
	case secs < 3600:
		return strconv.Itoa(int(math.Round(secs/60))) + " min"
	}
	return strconv.FormatFloat(secs/3600, 'f', 1, 64) + " h"
}

// RatingsPanels are the figures of the ladder: Elo against generation, against
// self-play games and against training hours (the run's CPU hours when
// its metrics record them, else wall-clock hours), each with its 95%
// interval as a band and the anchors as dashed lines; and, when there is
// one, the solver check against generation.
func RatingsPanels(rows []runfiles.Rating, anchor string) []Panel {
	var gen, games, hours, cpuHours, elo, lo, hi, srate, slo, shi []float64
	var levels, solverLevels []Level
	// A random mover's expected rate is exact: it stands for the random
	// anchor too, whose measured rate is named with it rather than drawn
	// as a second "random" line.
	random, randomMeasured := math.NaN(), math.NaN()
	for _, r := range rows {
		if r.Anchor {
			levels = append(levels, Level{Name: fmt.Sprintf("%s (%+.0f)", playerName(r.Player), r.Elo), Y: r.Elo})
			if r.SolverPositions > 0 {
				random = 100 * r.SolverRandom
				if r.Player == "random" && !math.IsNaN(random) {
					randomMeasured = 100 * r.SolverRate
					continue
				}
				solverLevels = append(solverLevels, Level{Name: fmt.Sprintf("%s (%.0f%%)", playerName(r.Player), 100*r.SolverRate), Y: 100 * r.SolverRate})
			}
			continue
		}
		gen, games, hours = append(gen, float64(r.Generation)), append(games, r.SelfplayGames), append(hours, r.Hours)
		cpuHours = append(cpuHours, r.CPUHours)
		elo, lo, hi = append(elo, r.Elo), append(lo, r.Low), append(hi, r.High)
		if r.SolverPositions > 0 {
			srate, slo, shi = append(srate, 100*r.SolverRate), append(slo, 100*r.SolverLow), append(shi, 100*r.SolverHigh)
		} else {
			srate, slo, shi = append(srate, math.NaN()), append(slo, math.NaN()), append(shi, math.NaN())
		}
	}
	ylabel := fmt.Sprintf("Elo (%s = 0)", anchor)
	line := func(x []float64) []Series {
		return []Series{{Name: "generation, 95% CI", X: x, Y: elo, Low: lo, High: hi, Points: true}}
	}
	// Training time is the run's own CPU time where its metrics record it
	// (a shared machine's wall clock says more about the other jobs),
	// else the wall clock.
	timeX, timeLabel := hours, "training time (wall-clock hours)"
	if slices.ContainsFunc(cpuHours, func(h float64) bool { return h > 0 && !math.IsInf(h, 0) }) {
		timeX, timeLabel = cpuHours, "training time (the run's CPU hours)"
	}
	out := []Panel{
		{Title: "strength by generation", XLabel: "generation", YLabel: ylabel, Series: line(gen), Levels: levels, IntegerX: true},
		{Title: "strength by self-play games", XLabel: "self-play games", YLabel: ylabel, Series: line(games), Levels: levels},
		{Title: "strength by training time", XLabel: timeLabel, YLabel: ylabel, Series: line(timeX), Levels: levels},
	}
	if len(solverLevels) > 0 || hasNumber(srate) {
		if !math.IsNaN(random) {
			name := fmt.Sprintf("random (%.0f%% expected)", random)
			if !math.IsNaN(randomMeasured) {
				name = fmt.Sprintf("random (%.0f%% expected, %.0f%% measured)", random, randomMeasured)
			}
			solverLevels = append(solverLevels, Level{Name: name, Y: random})
		}
		out = append(out, Panel{Title: "solver check", XLabel: "generation", YLabel: "won positions kept (%)",
			Series: []Series{{Name: "generation, 95% CI", X: gen, Y: srate, Low: slo, High: shi, Points: true}},
			Levels: solverLevels, IntegerX: true}.WithYRange(0, 100))
	}
	return out
}

// playerName writes an anchor's engine spec for a legend: its kind and
// the settings people read ("alphabeta:depth=2" → "alphabeta depth 2",
// "pvs:depth=8,eval=4/4/0/0/4/0" → "pvs depth 8"), without evaluation
// weights or a model's file; a name without settings stays as it is.
func playerName(spec string) string {
	kind, args, ok := strings.Cut(spec, ":")
	if !ok {
		return spec
	}
	parts := []string{kind}
	for _, a := range strings.Split(args, ",") {
		k, v, ok := strings.Cut(a, "=")
		if ok && (k == "depth" || k == "time" || k == "level" || k == "sims") {
			parts = append(parts, k+" "+v)
		}
	}
	return strings.Join(parts, " ")
}

func hasNumber(xs []float64) bool {
	for _, x := range xs {
		if !math.IsNaN(x) {
			return true
		}
	}
	return false
}
