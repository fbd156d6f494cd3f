package selfplay

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"

	"github.com/konanezero/konane/chart"
	"github.com/konanezero/konane/internal/atomicfile"
)

// Metrics are the figures of one generation, one row of DIR/metrics.csv.
type Metrics struct {
	Generation    int
	Games         int
	Samples       int     // new training samples
	Window        int     // replay window drawn from
	Steps         int     // training steps this generation
	PolicyLoss    float64 // mean over the generation's steps
	ValueLoss     float64
	L2            float64
	PolicyEntropy float64 // mean entropy (nats) of the search policy targets
	GameLength    float64 // mean plies per game
	BlackWinRate  float64
	EvalsPerSec   float64 // net evaluations per second during self-play
	GamesPerHour  float64
	CacheHitRate  float64
	SelfplaySecs  float64
	TrainSecs     float64
	WallSecs      float64 // total wall time of the run so far
	GateScore     float64 // candidate's score in the gate match (0 without gating)
	GateAccepted  bool    // the candidate became the best model
	Best          int     // generation of the model that played this generation's self-play
	// CPUSecs is the CPU time (user and system, all threads) the training
	// process spent on the generation, 0 where not measured (files written
	// before it was: metrics.csv without the column); with the load it was
	// spent under, the machine's load average over the last minute at the
	// generation's end.
	CPUSecs float64
	Load    float64
}

var metricsHeader = []string{"generation", "games", "samples", "window", "steps", "policy_loss", "value_loss", "l2",
	"policy_entropy", "game_length", "black_win_rate", "evals_per_sec", "games_per_hour", "cache_hit_rate",
	"selfplay_secs", "train_secs", "wall_secs", "gate_score", "gate_accepted", "best", "cpu_secs", "load"}

// oldMetricsFields is the width of a metrics.csv written before the
// cpu_secs and load columns: its rows read with those 0.
const oldMetricsFields = 20

func (m Metrics) row() []string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	return []string{strconv.Itoa(m.Generation), strconv.Itoa(m.Games), strconv.Itoa(m.Samples), strconv.Itoa(m.Window),
		strconv.Itoa(m.Steps), f(m.PolicyLoss), f(m.ValueLoss), f(m.L2), f(m.PolicyEntropy), f(m.GameLength),
		f(m.BlackWinRate), f(m.EvalsPerSec), f(m.GamesPerHour), f(m.CacheHitRate), f(m.SelfplaySecs), f(m.TrainSecs), f(m.WallSecs),
		f(m.GateScore), strconv.FormatBool(m.GateAccepted), strconv.Itoa(m.Best), f(m.CPUSecs), f(m.Load)}
}

// String is the plain log line of a generation.
func (m Metrics) String() string {
	gate := ""
	if m.GateScore > 0 || m.GateAccepted {
		gate = fmt.Sprintf(", gate %.0f%% (accepted %v)", 100*m.GateScore, m.GateAccepted)
	}
	speed := "speed not measured (its games were played before a restart)"
	switch {
	case m.EvalsPerSec > 0:
		speed = fmt.Sprintf("%.0f evals/s, %.0f games/h, cache hits %.0f%%", m.EvalsPerSec, m.GamesPerHour, 100*m.CacheHitRate)
	case m.GamesPerHour > 0: // a trainer fed by workers: games trained on per hour
		speed = fmt.Sprintf("%.0f games/h", m.GamesPerHour)
	}
	plies := "" // not known of workers' games
	if m.GameLength > 0 {
		plies = fmt.Sprintf("%.1f plies, ", m.GameLength)
	}
	cpu := ""
	if m.CPUSecs > 0 {
		cpu = fmt.Sprintf(", cpu %.0fs (load %.2f)", m.CPUSecs, m.Load)
	}
	return fmt.Sprintf("gen %d: %d games (%sblack wins %.0f%%), %d samples, window %d, %d steps, "+
		"loss policy %.3f value %.3f, entropy %.2f, %s, wall %.0fs%s%s",
		m.Generation, m.Games, plies, 100*m.BlackWinRate, m.Samples, m.Window, m.Steps,
		m.PolicyLoss, m.ValueLoss, m.PolicyEntropy, speed, m.WallSecs, cpu, gate)
}

// writeMetrics rewrites DIR/metrics.csv with all generations so far.
func writeMetrics(path string, all []Metrics) error {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(metricsHeader)
	for _, m := range all {
		w.Write(m.row())
	}
	w.Flush()
	return atomicfile.WriteFile(path, b.Bytes(), 0o644)
}

// ReadMetrics reads a run's DIR/metrics.csv (nil when it does not exist
// yet).
func ReadMetrics(path string) ([]Metrics, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	m, err := ParseMetrics(data)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	return m, nil
}

// ParseMetrics reads the contents of a metrics.csv: a header, then one row
// per generation.
func ParseMetrics(data []byte) ([]Metrics, error) {
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("selfplay: metrics: %w", err)
	}
	var out []Metrics
	for i, r := range rows {
		if i == 0 {
			continue
		}
		if len(r) != len(metricsHeader) && len(r) != oldMetricsFields {
			return nil, fmt.Errorf("selfplay: metrics line %d: %d fields, want %d (or %d, without cpu_secs and load)", i+1, len(r), len(metricsHeader), oldMetricsFields)
		}
		num := make([]float64, len(metricsHeader))
		for j, s := range r {
			if metricsHeader[j] == "gate_accepted" {
				if s == "true" {
					num[j] = 1
				}
				continue
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("selfplay: metrics line %d field %s: %w", i+1, metricsHeader[j], err)
			}
			num[j] = v
		}
		out = append(out, Metrics{int(num[0]), int(num[1]), int(num[2]), int(num[3]), int(num[4]), num[5], num[6], num[7],
			num[8], num[9], num[10], num[11], num[12], num[13], num[14], num[15], num[16], num[17], num[18] == 1, int(num[19]), num[20], num[21]})
	}
	return out, nil
}

// plotMetrics draws the learning curves of the run into a PNG.
func plotMetrics(path string, all []Metrics) error {
	return chart.SavePNG(path, MetricsPanels(all), 2)
}

// MetricsPanels are the learning curves of a run, one panel per quantity
// (losses and entropy; game length and Black's wins; throughput), against
// the generation with the hours of training under each tick.
func MetricsPanels(all []Metrics) []chart.Panel {
	gens := make([]float64, len(all))
	for i, m := range all {
		gens[i] = float64(m.Generation)
	}
	get := func(f func(Metrics) float64) []float64 {
		out := make([]float64, len(all))
		for i, m := range all {
			out[i] = f(m)
		}
		return out
	}
	series := func(name string, f func(Metrics) float64) chart.Series {
		return chart.Series{Name: name, X: gens, Y: get(f), Smooth: true}
	}
	hours := func(x float64) string {
		i := sort.Search(len(all), func(i int) bool { return float64(all[i].Generation) >= x })
		if i == len(all) || float64(all[i].Generation) != x {
			return ""
		}
		return formatHours(all[i].WallSecs)
	}
	panel := func(title, ylabel string, s ...chart.Series) chart.Panel {
		return chart.Panel{Title: title, XLabel: "generation / training time", YLabel: ylabel, Series: s, IntegerX: true, Second: hours}
	}
	// A speed of 0 was not measured (a generation whose games were all
	// played before a restart), nor is a length of 0 (a trainer fed by
	// workers knows its games' samples, not their plies): a gap in the
	// line.
	measured := func(f func(Metrics) float64) func(Metrics) float64 {
		return func(m Metrics) float64 {
			if v := f(m); v > 0 {
				return v
			}
			return math.NaN()
		}
	}
	pct := func(f func(Metrics) float64) func(Metrics) float64 {
		return func(m Metrics) float64 { return 100 * f(m) }
	}
	black := panel("Black's wins in self-play", "games won by Black (%)", series("Black", pct(func(m Metrics) float64 { return m.BlackWinRate })))
	black.Levels = []chart.Level{{Name: "even (50%)", Y: 50}}
	return []chart.Panel{
		panel("training losses", "loss (nats)",
			series("policy", func(m Metrics) float64 { return m.PolicyLoss }), series("value", func(m Metrics) float64 { return m.ValueLoss })),
		panel("entropy of the search policy", "entropy (nats)", series("targets", func(m Metrics) float64 { return m.PolicyEntropy })),
		panel("self-play game length", "plies per game", series("length", measured(func(m Metrics) float64 { return m.GameLength }))),
		black.WithYRange(0, 100),
		panel("self-play speed", "games per hour", series("games/h", measured(func(m Metrics) float64 { return m.GamesPerHour }))),
		panel("network evaluations", "positions per second", series("evals/s", measured(func(m Metrics) float64 { return m.EvalsPerSec }))),
		panel("evaluator cache", "hits (% of lookups)", series("hits", pct(func(m Metrics) float64 {
			if m.EvalsPerSec == 0 { // no self-play in the trainer's process
				return math.NaN()
			}
			return m.CacheHitRate
		}))).WithYRange(0, 100),
		panel("time per generation", "seconds",
			series("self-play", func(m Metrics) float64 { return m.SelfplaySecs }), series("training", func(m Metrics) float64 { return m.TrainSecs })),
	}
}

// formatHours writes a training time for a tick label: minutes under
// an hour, else hours.
func formatHours(secs float64) string {
	if secs < 3600 {
		return strconv.Itoa(int(math.Round(secs/60))) + " min"
	}
	return strconv.FormatFloat(secs/3600, 'f', 1, 64) + " h"
}
