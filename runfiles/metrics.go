package runfiles

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"slices"
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
	// SoftPolicyKL is what the soft policy head has left to learn
	// (net.Losses.SoftPolicyKL: its cross-entropy, unweighted, minus the
	// soft targets' entropy), the mean over the generation's steps; 0 for
	// a run without the head and in files written before the column.
	SoftPolicyKL float64
	// OldSoftPolicyLoss is the retired column soft_policy_loss of files
	// written before soft_policy_kl (a few runs of 2026-12-07): the head's
	// loss term, 8 times its cross-entropy, the soft targets' entropy in
	// it, which cannot be turned into the KL. It is read and written back
	// so that a resumed run keeps it; no run sets it.
	OldSoftPolicyLoss float64
	// Boards are the figures of each board of a multi-board run, in the
	// order of its board list; nil for a single-board run (whose
	// metrics.csv has no such columns, as before).
	Boards []BoardMetrics
}

// BoardMetrics are one board's figures of a generation of a multi-board
// run, the columns "BOARD.NAME" of metrics.csv after the others
// ("7x6.games", "7x6.policy_loss", ...; boardColumns lists the names).
// Training draws a batch of one shape at a time: two boards of the same
// shape and different starts share the figures of their steps (the
// first of them in the list has them).
type BoardMetrics struct {
	Board        string // as the run's board list names it: "7x6", "4x5/removal"
	Games        int
	Samples      int
	Steps        int
	GameLength   float64 // mean plies per game
	BlackWinRate float64
	PolicyLoss   float64 // mean over the board's steps
	ValueLoss    float64
}

// boardColumns are the per-board columns, after "BOARD.".
var boardColumns = []struct {
	name string
	i    func(*BoardMetrics) *int
	f    func(*BoardMetrics) *float64
}{
	{name: "games", i: func(b *BoardMetrics) *int { return &b.Games }},
	{name: "samples", i: func(b *BoardMetrics) *int { return &b.Samples }},
	{name: "steps", i: func(b *BoardMetrics) *int { return &b.Steps }},
	{name: "game_length", f: func(b *BoardMetrics) *float64 { return &b.GameLength }},
	{name: "black_win_rate", f: func(b *BoardMetrics) *float64 { return &b.BlackWinRate }},
	{name: "policy_loss", f: func(b *BoardMetrics) *float64 { return &b.PolicyLoss }},
	{name: "value_loss", f: func(b *BoardMetrics) *float64 { return &b.ValueLoss }},
}

// boardColumn finds the per-board column of a header name "BOARD.NAME":
// the board and the index in boardColumns, ok false for another name.
func boardColumn(name string) (board string, k int, ok bool) {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 {
		return "", 0, false
	}
	for k, c := range boardColumns {
		if c.name == name[i+1:] {
			return name[:i], k, true
		}
	}
	return "", 0, false
}

// metricsColumn is one column of metrics.csv: its name and the field it
// holds. A column added later is appended here; files written before it
// still parse, the field zero. A retired column is written only when a
// row has a value in it (a file that had it, rewritten).
type metricsColumn struct {
	name    string
	i       func(*Metrics) *int
	f       func(*Metrics) *float64
	b       func(*Metrics) *bool
	retired bool
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
	{name: "soft_policy_loss", f: func(m *Metrics) *float64 { return &m.OldSoftPolicyLoss }, retired: true},
	floatCol("soft_policy_kl", func(m *Metrics) *float64 { return &m.SoftPolicyKL }),
}

// MetricsHeader is the first row of metrics.csv: its column names (of
// the columns a run writes, without the retired ones).
func MetricsHeader() []string {
	var h []string
	for _, c := range columnsOf(nil) {
		h = append(h, c.name)
	}
	return h
}

// columnsOf returns the columns of a metrics.csv of the rows all:
// metricsColumns without the retired columns none of all has a value in.
func columnsOf(all []Metrics) []metricsColumn {
	var out []metricsColumn
	for _, c := range metricsColumns {
		if !c.retired || slices.ContainsFunc(all, func(m Metrics) bool { return *c.f(&m) != 0 }) {
			out = append(out, c)
		}
	}
	return out
}

// row is m as a row of metrics.csv of the columns cols.
func (m Metrics) row(cols []metricsColumn) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
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
	aux := "" // only for a run with auxiliary heads or the soft policy head
	if m.OwnershipLoss > 0 {
		aux += fmt.Sprintf(" ownership %.3f", m.OwnershipLoss)
	}
	if m.MovesLeftLoss > 0 {
		aux += fmt.Sprintf(" moves-left %.3f", m.MovesLeftLoss)
	}
	if m.SoftPolicyKL > 0 {
		aux += fmt.Sprintf(" soft-policy-kl %.3f", m.SoftPolicyKL)
	}
	return fmt.Sprintf("gen %d: %d games (%sblack wins %.0f%%), %d samples, window %d, %d steps, "+
		"loss policy %.3f value %.3f%s, entropy %.2f, %s, wall %.0fs%s%s",
		m.Generation, m.Games, plies, 100*m.BlackWinRate, m.Samples, m.Window, m.Steps,
		m.PolicyLoss, m.ValueLoss, aux, m.PolicyEntropy, speed, m.WallSecs, cpu, gate)
}

// EncodeMetrics returns metrics.csv with all generations so far: the
// columns of MetricsHeader, then, for a multi-board run, the per-board
// columns of every board its rows name (BoardMetrics).
func EncodeMetrics(all []Metrics) []byte {
	var boards []string
	for _, m := range all {
		for _, bm := range m.Boards {
			if !slices.Contains(boards, bm.Board) {
				boards = append(boards, bm.Board)
			}
		}
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	cols := columnsOf(all)
	var header []string
	for _, c := range cols {
		header = append(header, c.name)
	}
	for _, board := range boards {
		for _, c := range boardColumns {
			header = append(header, board+"."+c.name)
		}
	}
	w.Write(header)
	for _, m := range all {
		row := m.row(cols)
		for _, board := range boards {
			var bm BoardMetrics
			if k := slices.IndexFunc(m.Boards, func(x BoardMetrics) bool { return x.Board == board }); k >= 0 {
				bm = m.Boards[k]
			}
			for _, c := range boardColumns {
				if c.i != nil {
					row = append(row, strconv.Itoa(*c.i(&bm)))
				} else {
					row = append(row, strconv.FormatFloat(*c.f(&bm), 'g', 6, 64))
				}
			}
		}
		w.Write(row)
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
	type boardCol struct {
		board int // index into the row's Boards
		k     int // into boardColumns
	}
	bcols := make(map[int]boardCol) // by column
	var boards []string
	seen := map[string]bool{}
	for j, name := range rows[0] {
		k := -1
		for i, c := range metricsColumns {
			if c.name == name {
				k = i
			}
		}
		if board, bk, ok := boardColumn(name); ok && k < 0 && !seen[name] {
			seen[name] = true
			bi := slices.Index(boards, board)
			if bi < 0 {
				bi, boards = len(boards), append(boards, board)
			}
			bcols[j] = boardCol{bi, bk}
			continue
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
		if len(boards) > 0 {
			m.Boards = make([]BoardMetrics, len(boards))
			for bi, board := range boards {
				m.Boards[bi].Board = board
			}
		}
		for j, s := range r {
			if bc, ok := bcols[j]; ok {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil {
					return nil, fmt.Errorf("runfiles: metrics line %d field %s: %w", i+2, rows[0][j], err)
				}
				c, bm := boardColumns[bc.k], &m.Boards[bc.board]
				if c.i != nil {
					*c.i(bm) = int(v)
				} else {
					*c.f(bm) = v
				}
				continue
			}
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
