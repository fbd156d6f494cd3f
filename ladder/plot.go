package ladder

import (
	"fmt"
	"math"

	"github.com/konanezero/konane/chart"
)

// Panels are the figures of the ladder: Elo against generation, against
// self-play games and against training hours, each with its 95%
// interval as a band and the anchors as dashed lines; and, when there is
// one, the solver check against generation.
func Panels(rows []Row, anchor string) []chart.Panel {
	var gen, games, hours, elo, lo, hi, srate, slo, shi []float64
	var levels, solverLevels []chart.Level
	// A random mover's expected rate is exact: it stands for the random
	// anchor too, whose measured rate is named with it rather than drawn
	// as a second "random" line.
	random, randomMeasured := math.NaN(), math.NaN()
	for _, r := range rows {
		if r.Anchor {
			levels = append(levels, chart.Level{Name: fmt.Sprintf("%s (%+.0f)", r.Player, r.Elo), Y: r.Elo})
			if r.SolverPositions > 0 {
				random = 100 * r.SolverRandom
				if r.Player == "random" && !math.IsNaN(random) {
					randomMeasured = 100 * r.SolverRate
					continue
				}
				solverLevels = append(solverLevels, chart.Level{Name: fmt.Sprintf("%s (%.0f%%)", r.Player, 100*r.SolverRate), Y: 100 * r.SolverRate})
			}
			continue
		}
		gen, games, hours = append(gen, float64(r.Generation)), append(games, r.SelfplayGames), append(hours, r.Hours)
		elo, lo, hi = append(elo, r.Elo), append(lo, r.Low), append(hi, r.High)
		if r.SolverPositions > 0 {
			srate, slo, shi = append(srate, 100*r.SolverRate), append(slo, 100*r.SolverLow), append(shi, 100*r.SolverHigh)
		} else {
			srate, slo, shi = append(srate, math.NaN()), append(slo, math.NaN()), append(shi, math.NaN())
		}
	}
	ylabel := fmt.Sprintf("Elo (%s = 0)", anchor)
	line := func(x []float64) []chart.Series {
		return []chart.Series{{Name: "generation, 95% CI", X: x, Y: elo, Low: lo, High: hi, Points: true}}
	}
	out := []chart.Panel{
		{Title: "strength by generation", XLabel: "generation", YLabel: ylabel, Series: line(gen), Levels: levels, IntegerX: true},
		{Title: "strength by self-play games", XLabel: "self-play games", YLabel: ylabel, Series: line(games), Levels: levels},
		{Title: "strength by training time", XLabel: "training time (hours)", YLabel: ylabel, Series: line(hours), Levels: levels},
	}
	if len(solverLevels) > 0 || hasNumber(srate) {
		if !math.IsNaN(random) {
			name := fmt.Sprintf("random (%.0f%% expected)", random)
			if !math.IsNaN(randomMeasured) {
				name = fmt.Sprintf("random (%.0f%% expected, %.0f%% measured)", random, randomMeasured)
			}
			solverLevels = append(solverLevels, chart.Level{Name: name, Y: random})
		}
		out = append(out, chart.Panel{Title: "solver check", XLabel: "generation", YLabel: "won positions kept (%)",
			Series: []chart.Series{{Name: "generation, 95% CI", X: gen, Y: srate, Low: slo, High: shi, Points: true}},
			Levels: solverLevels, IntegerX: true}.WithYRange(0, 100))
	}
	return out
}

func hasNumber(xs []float64) bool {
	for _, x := range xs {
		if !math.IsNaN(x) {
			return true
		}
	}
	return false
}

// SavePlot writes the ladder's figure (Panels) to path as a PNG.
func SavePlot(path string, rows []Row, anchor string) error {
	if err := chart.SavePNG(path, Panels(rows, anchor), 2); err != nil {
		return fmt.Errorf("ladder: %w", err)
	}
	return nil
}
