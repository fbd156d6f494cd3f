package runfiles

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
)

// Metrics are the figures of one generation, one row of metrics.csv.
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
	// before it was: metrics.csv without the column); Load is the load it
	// was spent under, the machine's load average over the last minute at
	// the generation's end.
	CPUSecs float64
	Load    float64
	// OwnershipLoss and MovesLeftLoss are the auxiliary heads' loss terms
	// (net.Losses.Ownership and .MovesLeft, weighted as in the loss),
	// means over the generation's steps; 0 for a run without that head
	// and in files written before the columns.
	OwnershipLoss float64
	MovesLeftLoss float64
}

// metricsColumn is one column of metrics.csv: its name and the field it
// holds. A column added later is appended here; files written before it
// still parse, the field zero.
type metricsColumn struct {
	name string
	i    func(*Metrics) *int
	f    func(*Metrics) *float64
	b    func(*Metrics) *bool
}

func intCol(name string, p func(*Metrics) *int) metricsColumn { return metricsColumn{name: name, i: p} }
func floatCol(name string, p func(*Metrics) *float64) metricsColumn {
	return metricsColumn{name: name, f: p}
}

var metricsColumns = []metricsColumn{
	intCol("generation", func(m *Metrics) *int { return &m.Generation }),
	intCol("games", func(m *Metrics) *int { return &m.Games }),
	intCol("samples", func(m *Metrics) *int { return &m.Samples }),
	intCol("window", func(m *Metrics) *int { return &m.Window }),
	intCol("steps", func(m *Metrics) *int { return &m.Steps }),
	floatCol("policy_loss", func(m *Metrics) *float64 { return &m.PolicyLoss }),
	floatCol("value_loss", func(m *Metrics) *float64 { return &m.ValueLoss }),
	floatCol("l2", func(m *Metrics) *float64 { return &m.L2 }),
	floatCol("policy_entropy", func(m *Metrics) *float64 { return &m.PolicyEntropy }),
	floatCol("game_length", func(m *Metrics) *float64 { return &m.GameLength }),
	floatCol("black_win_rate", func(m *Metrics) *float64 { return &m.BlackWinRate }),
	floatCol("evals_per_sec", func(m *Metrics) *float64 { return &m.EvalsPerSec }),
	floatCol("games_per_hour", func(m *Metrics) *float64 { return &m.GamesPerHour }),
	floatCol("cache_hit_rate", func(m *Metrics) *float64 { return &m.CacheHitRate }),
	floatCol("selfplay_secs", func(m *Metrics) *float64 { return &m.SelfplaySecs }),
	floatCol("train_secs", func(m *Metrics) *float64 { return &m.TrainSecs }),
	floatCol("wall_secs", func(m *Metrics) *float64 { return &m.WallSecs }),
	floatCol("gate_score", func(m *Metrics) *float64 { return &m.GateScore }),
	{name: "gate_accepted", b: func(m *Metrics) *bool { return &m.GateAccepted }},
	intCol("best", func(m *Metrics) *int { return &m.Best }),
	floatCol("cpu_secs", func(m *Metrics) *float64 { return &m.CPUSecs }),
	floatCol("load", func(m *Metrics) *float64 { return &m.Load }),
	floatCol("ownership_loss", func(m *Metrics) *float64 { return &m.OwnershipLoss }),
	floatCol("moves_left_loss", func(m *Metrics) *float64 { return &m.MovesLeftLoss }),
}

// MetricsHeader is the first row of metrics.csv: its column names.
func MetricsHeader() []string {
	h := make([]string, len(metricsColumns))
	for i, c := range metricsColumns {
		h[i] = c.name
	}
	return h
}

// Row is m as a row of metrics.csv.
func (m Metrics) Row() []string {
	out := make([]string, len(metricsColumns))
	for i, c := range metricsColumns {
		switch {
		case c.i != nil:
			out[i] = strconv.Itoa(*c.i(&m))
		case c.f != nil:
			out[i] = strconv.FormatFloat(*c.f(&m), 'g', 6, 64)
		default:
			out[i] = strconv.FormatBool(*c.b(&m))
		}
	}
	return out
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
	aux := "" // only for a run with auxiliary heads
	if m.OwnershipLoss > 0 {
		aux += fmt.Sprintf(" ownership %.3f", m.OwnershipLoss)
	}
	if m.MovesLeftLoss > 0 {
		aux += fmt.Sprintf(" moves-left %.3f", m.MovesLeftLoss)
	}
	return fmt.Sprintf("gen %d: %d games (%sblack wins %.0f%%), %d samples, window %d, %d steps, "+
		"loss policy %.3f value %.3f%s, entropy %.2f, %s, wall %.0fs%s%s",
		m.Generation, m.Games, plies, 100*m.BlackWinRate, m.Samples, m.Window, m.Steps,
		m.PolicyLoss, m.ValueLoss, aux, m.PolicyEntropy, speed, m.WallSecs, cpu, gate)
}

// EncodeMetrics returns metrics.csv with all generations so far.
func EncodeMetrics(all []Metrics) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(MetricsHeader())
	for _, m := range all {
		w.Write(m.Row())
	}
	w.Flush()
	return b.Bytes()
}

// ParseMetrics reads the contents of a metrics.csv: a header, then one
// row per generation. The header names the columns; a column this code
// knows that the file lacks (a file older than the column) leaves its
// field zero; a column it does not know is refused.
func ParseMetrics(data []byte) ([]Metrics, error) {
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("runfiles: metrics: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	cols := make([]metricsColumn, len(rows[0]))
	seen := map[string]bool{}
	for j, name := range rows[0] {
		k := -1
		for i, c := range metricsColumns {
			if c.name == name {
				k = i
			}
		}
		if k < 0 || seen[name] {
			return nil, fmt.Errorf("runfiles: metrics header: column %q unknown or repeated (want %s)", quote(name), strings.Join(MetricsHeader(), ","))
		}
		seen[name] = true
		cols[j] = metricsColumns[k]
	}
	var out []Metrics
	for i, r := range rows[1:] {
		var m Metrics
		for j, s := range r {
			c := cols[j]
			if c.b != nil {
				*c.b(&m) = s == "true"
				continue
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("runfiles: metrics line %d field %s: %w", i+2, c.name, err)
			}
			if c.i != nil {
				*c.i(&m) = int(v)
			} else {
				*c.f(&m) = v
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// quote cuts s to at most 100 bytes for an error message.
func quote(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}
