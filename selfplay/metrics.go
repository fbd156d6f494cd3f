package selfplay

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"image/color"
	"io"
	"os"
	"strconv"

	"github.com/konanezero/konane/internal/atomicfile"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
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
}

var metricsHeader = []string{"generation", "games", "samples", "window", "steps", "policy_loss", "value_loss", "l2",
	"policy_entropy", "game_length", "black_win_rate", "evals_per_sec", "games_per_hour", "cache_hit_rate",
	"selfplay_secs", "train_secs", "wall_secs", "gate_score", "gate_accepted", "best"}

func (m Metrics) row() []string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	return []string{strconv.Itoa(m.Generation), strconv.Itoa(m.Games), strconv.Itoa(m.Samples), strconv.Itoa(m.Window),
		strconv.Itoa(m.Steps), f(m.PolicyLoss), f(m.ValueLoss), f(m.L2), f(m.PolicyEntropy), f(m.GameLength),
		f(m.BlackWinRate), f(m.EvalsPerSec), f(m.GamesPerHour), f(m.CacheHitRate), f(m.SelfplaySecs), f(m.TrainSecs), f(m.WallSecs),
		f(m.GateScore), strconv.FormatBool(m.GateAccepted), strconv.Itoa(m.Best)}
}

// String is the plain log line of a generation.
func (m Metrics) String() string {
	gate := ""
	if m.GateScore > 0 || m.GateAccepted {
		gate = fmt.Sprintf(", gate %.0f%% (accepted %v)", 100*m.GateScore, m.GateAccepted)
	}
	return fmt.Sprintf("gen %d: %d games (%.1f plies, black wins %.0f%%), %d samples, window %d, %d steps, "+
		"loss policy %.3f value %.3f, entropy %.2f, %.0f evals/s, %.0f games/h, cache hits %.0f%%, wall %.0fs%s",
		m.Generation, m.Games, m.GameLength, 100*m.BlackWinRate, m.Samples, m.Window, m.Steps,
		m.PolicyLoss, m.ValueLoss, m.PolicyEntropy, m.EvalsPerSec, m.GamesPerHour, 100*m.CacheHitRate, m.WallSecs, gate)
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
		if len(r) != len(metricsHeader) {
			return nil, fmt.Errorf("selfplay: metrics line %d: %d fields, want %d", i+1, len(r), len(metricsHeader))
		}
		num := make([]float64, len(r))
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
			num[8], num[9], num[10], num[11], num[12], num[13], num[14], num[15], num[16], num[17], num[18] == 1, int(num[19])})
	}
	return out, nil
}

// plotMetrics draws the learning curves of the run into a PNG.
func plotMetrics(path string, all []Metrics) error {
	type curve struct {
		name string
		get  func(Metrics) float64
	}
	panels := []struct {
		title  string
		curves []curve
	}{
		{"losses", []curve{{"policy", func(m Metrics) float64 { return m.PolicyLoss }}, {"value", func(m Metrics) float64 { return m.ValueLoss }}}},
		{"self-play", []curve{{"policy entropy", func(m Metrics) float64 { return m.PolicyEntropy }}, {"black win rate", func(m Metrics) float64 { return m.BlackWinRate }}}},
		{"game length (plies)", []curve{{"plies", func(m Metrics) float64 { return m.GameLength }}}},
	}
	plots := make([][]*plot.Plot, len(panels))
	for i, pn := range panels {
		p := plot.New()
		p.Title.Text = pn.title
		p.X.Label.Text = "generation"
		for j, c := range pn.curves {
			pts := make(plotter.XYs, len(all))
			for k, m := range all {
				pts[k] = plotter.XY{X: float64(m.Generation), Y: c.get(m)}
			}
			line, err := plotter.NewLine(pts)
			if err != nil {
				return err
			}
			line.Color = plotColors[j%len(plotColors)]
			p.Add(line)
			p.Legend.Add(c.name, line)
		}
		p.Legend.Top = true
		plots[i] = []*plot.Plot{p}
	}
	img := vgimg.New(6*vg.Inch, 3*vg.Inch*vg.Length(len(panels)))
	tiles := draw.Tiles{Rows: len(panels), Cols: 1, PadTop: vg.Millimeter, PadBottom: vg.Millimeter,
		PadLeft: vg.Millimeter, PadRight: vg.Millimeter, PadY: 2 * vg.Millimeter}
	canvases := plot.Align(plots, tiles, draw.New(img))
	for i := range plots {
		plots[i][0].Draw(canvases[i][0])
	}
	return atomicfile.Write(path, 0o644, func(w io.Writer) error {
		_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
		return err
	})
}

var plotColors = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
}
