package analysis

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/konanezero/konane/chart"
	"github.com/konanezero/konane/rules"
)

// JSONRow is a Row as JSON, moves in notation: what `konane analyze
// --json` prints, one per move.
type JSONRow struct {
	Ply     int      `json:"ply"`
	Player  string   `json:"player"` // "black" or "white"
	Move    string   `json:"move"`
	Before  float64  `json:"winrateBefore"` // the mover's
	After   float64  `json:"winrateAfter"`
	Loss    float64  `json:"loss"`
	Class   string   `json:"class,omitempty"` // "inaccuracy", "mistake", "blunder"
	Best    string   `json:"best,omitempty"`
	PV      []string `json:"pv,omitempty"`
	Line    []string `json:"line"`              // the move played and the line expected after it
	Verdict string   `json:"verdict,omitempty"` // the solver's, see Verdict
	// Candidates are the agent's best moves before this one (Row.Candidates).
	Candidates []JSONCandidate `json:"candidates,omitempty"`
}

// JSONCandidate is a Candidate as JSON.
type JSONCandidate struct {
	Move    string  `json:"move"`
	Winrate float64 `json:"winrate"` // the mover's, after the move
	Visits  int     `json:"visits"`
	Solved  string  `json:"solved,omitempty"` // "win" or "loss" for the mover, when exact
}

// JSONReport is a Report as JSON.
type JSONReport struct {
	Size   int        `json:"size,omitempty"` // N of a square board up to 8x8
	Board  string     `json:"board"`          // "9x8", as records name it
	Start  string     `json:"start"`          // "removal" or "gap"
	Engine string     `json:"engine"`         // who reviewed it (Report.Engine)
	Sims   int        `json:"sims"`           // simulations run in all (0 by the classical engine)
	Rows   []JSONRow  `json:"moves"`
	Result JSONResult `json:"result"`
}

// JSONResult is an Outcome as JSON.
type JSONResult struct {
	Over     bool   `json:"over"`
	Winner   string `json:"winner,omitempty"` // "black" or "white", when over
	Resigned bool   `json:"resigned,omitempty"`
}

// JSON returns the report in its JSON form.
func (rep *Report) JSON() JSONReport {
	out := JSONReport{Size: rep.Size, Board: rep.boardName(), Start: rep.Board.Start.String(), Engine: rep.Engine, Rows: []JSONRow{}, Result: JSONResult{Over: rep.Outcome.Over(), Resigned: rep.Outcome.Method == rules.Resignation}}
	if rep.Outcome.Over() {
		out.Result.Winner = rep.Outcome.Winner.String()
	}
	for _, p := range rep.Positions {
		out.Sims += p.Search.Sims
	}
	for _, r := range rep.Rows {
		j := JSONRow{Ply: r.Ply, Player: r.Player.String(), Move: r.move(),
			Before: round(r.Before), After: round(r.After), Loss: round(r.Loss),
			Class: r.Class.String(), Verdict: r.Verdict.String(), PV: r.pv(),
			Line: r.line(), Best: r.best()}
		if j.Line == nil {
			j.Line = []string{}
		}
		j.Candidates = CandidatesJSON(r.Candidates)
		out.Rows = append(out.Rows, j)
	}
	return out
}

func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// boardName is the board without its start: "9x8".
func (rep *Report) boardName() string { return fmt.Sprintf("%dx%d", rep.Board.W, rep.Board.H) }

// Heading is the report's first line: the board, its start and who
// reviewed the game, like "9x8 game, gap start, reviewed by the
// classical engine (...)".
func (rep *Report) Heading() string {
	return fmt.Sprintf("%s game, %s start, reviewed by %s", rep.boardName(), rep.Board.Start, rep.Engine)
}

// MoveNumber numbers the move of ply (1-based) as records and players
// do, by move pairs: Black's third move (ply 5) is "3.", White's reply
// (ply 6) "3...". Black moves first in every game.
func MoveNumber(ply int) string {
	if ply%2 == 1 {
		return strconv.Itoa((ply+1)/2) + "."
	}
	return strconv.Itoa(ply/2) + "..."
}

// WriteTable writes the report as a table for people: its Heading, one
// row per move, then each side's count of inaccuracies, mistakes and
// blunders and the game's Outcome.
func (rep *Report) WriteTable(w io.Writer) error {
	if _, err := fmt.Fprintln(w, rep.Heading()); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "no.\tplayer\tmove\tbefore\tafter\tloss\tclass\tbest line\tline played\tsolver")
	for _, r := range rep.Rows {
		// The agent's line; and the one it expects after the move
		// played, when that was not its choice.
		best, played := strings.Join(r.pv(), " "), strings.Join(r.line(), " ")
		if r.best() == r.move() {
			best, played = "= "+best, "="
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.0f%%\t%.0f%%\t%.0f%%\t%s\t%s\t%s\t%s\n", MoveNumber(r.Ply), r.Player, r.move(),
			100*r.Before, 100*r.After, 100*r.Loss, r.Class, best, played, r.Verdict)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var counts [2][4]int
	for _, r := range rep.Rows {
		counts[r.Player][r.Class]++
	}
	for _, c := range []rules.Color{rules.Black, rules.White} {
		var parts []string
		for cl := Inaccuracy; cl <= Blunder; cl++ {
			name := cl.plural()
			if counts[c][cl] == 1 {
				name = cl.String()
			}
			parts = append(parts, fmt.Sprintf("%d %s", counts[c][cl], name))
		}
		if _, err := fmt.Fprintf(w, "%s: %s\n", c, strings.Join(parts, ", ")); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "result: %s\n", rep.Outcome)
	return err
}

// Panel is the report as a chart: Black's probability of winning after
// each move in percent, as the table gives it, with the inaccuracies,
// mistakes and blunders marked, each kind in its own shape and colour,
// at the position they lead to. The X axis counts move pairs, as the
// table numbers them: the position after Black's move n is at n-0.5,
// after White's at n, the start at 0.
func (rep *Report) Panel() chart.Panel {
	xs := make([]float64, len(rep.Positions))
	ys := make([]float64, len(rep.Positions))
	for i, p := range rep.Positions {
		xs[i] = float64(i) / 2
		ys[i] = p.WinProb
		if p.Side != rules.Black {
			ys[i] = 1 - p.WinProb
		}
		ys[i] *= 100
	}
	// The curve's name says what it measures, whoever won.
	series := []chart.Series{{Name: "Black's win probability", X: xs, Y: ys}}
	for _, k := range []struct {
		class Class
		glyph chart.Glyph
		color color.RGBA
	}{
		// The shapes and colours of the page's review graph
		// (web/static/review.js, style.css): ◆ ▲ ✖.
		{Inaccuracy, chart.Diamond, color.RGBA{0xf2, 0xc1, 0x2e, 0xff}},
		{Mistake, chart.Triangle, color.RGBA{0xe0, 0x7b, 0x00, 0xff}},
		{Blunder, chart.Cross, color.RGBA{0xb0, 0x00, 0x20, 0xff}},
	} {
		marks := make([]float64, len(xs))
		n := 0
		for i := range marks {
			marks[i] = math.NaN()
		}
		for _, r := range rep.Rows {
			if r.Class == k.class {
				marks[r.Ply] = ys[r.Ply]
				n++
			}
		}
		name := k.class.plural()
		if n == 1 {
			name = k.class.String()
		}
		series = append(series, chart.Series{Name: fmt.Sprintf("%d %s", n, name), X: xs, Y: marks,
			Marks: true, Glyph: k.glyph, Color: k.color})
	}
	return chart.Panel{
		Title:  fmt.Sprintf("%s game (%s start): Black's chance of winning", rep.boardName(), rep.Board.Start),
		XLabel: "move (pairs: Black's, then White's)", YLabel: "Black's win probability (%)", IntegerX: true, XTicks: 12, YTicks: 10,
		Series: series,
		Levels: []chart.Level{{Name: "even", Y: 50}},
	}.WithYRange(0, 100)
}

// PlotWidth and PlotHeight are the size of the PNG of a game.
var (
	PlotWidth  = 10 * chart.Inch
	PlotHeight = 5 * chart.Inch
)

// CandidatesJSON returns candidates in their JSON form (nil for none).
func CandidatesJSON(cs []Candidate) []JSONCandidate {
	var out []JSONCandidate
	for _, c := range cs {
		out = append(out, JSONCandidate{Move: c.Move.String(), Winrate: round(c.WinProb), Visits: c.Visits, Solved: c.Exact.String()})
	}
	return out
}
