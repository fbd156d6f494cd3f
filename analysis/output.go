package analysis

import (
	"fmt"
	"io"
	"math"
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
}

// JSONReport is a Report as JSON.
type JSONReport struct {
	Size int       `json:"size"`
	Sims int       `json:"sims"` // simulations run in all
	Rows []JSONRow `json:"moves"`
}

// JSON returns the report in its JSON form.
func (rep *Report) JSON() JSONReport {
	out := JSONReport{Size: rep.Size, Rows: []JSONRow{}}
	for _, p := range rep.Positions {
		out.Sims += p.Search.Sims
	}
	for _, r := range rep.Rows {
		j := JSONRow{Ply: r.Ply, Player: r.Player.String(), Move: r.Move.String(),
			Before: round(r.Before), After: round(r.After), Loss: round(r.Loss),
			Class: r.Class.String(), Verdict: r.Verdict.String(), PV: rules.MoveStrings(r.PV),
			Line: rules.MoveStrings(r.Line)}
		if r.Best != rules.NoMove {
			j.Best = r.Best.String()
		}
		out.Rows = append(out.Rows, j)
	}
	return out
}

func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// WriteTable writes the report as a table for people, one row per move.
func (rep *Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ply\tplayer\tmove\tbefore\tafter\tloss\tclass\tbest line\tline played\tsolver")
	for _, r := range rep.Rows {
		// The agent's line; and the one it expects after the move
		// played, when that was not its choice.
		best, played := rules.MovesText(r.PV), rules.MovesText(r.Line)
		if r.Best == r.Move {
			best, played = "= "+best, "="
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.0f%%\t%.0f%%\t%.0f%%\t%s\t%s\t%s\t%s\n", r.Ply, r.Player, r.Move,
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
			parts = append(parts, fmt.Sprintf("%d %s", counts[c][cl], cl.plural()))
		}
		if _, err := fmt.Fprintf(w, "%s: %s\n", c, strings.Join(parts, ", ")); err != nil {
			return err
		}
	}
	return nil
}

// Panel is the report as a chart: Black's probability of winning per
// ply (0 = the start), with the mistakes and blunders marked at the
// position they lead to.
func (rep *Report) Panel() chart.Panel {
	xs := make([]float64, len(rep.Positions))
	ys := make([]float64, len(rep.Positions))
	marks := make([]float64, len(rep.Positions))
	for i, p := range rep.Positions {
		xs[i] = float64(i)
		ys[i] = p.WinProb
		if p.Side != rules.Black {
			ys[i] = 1 - p.WinProb
		}
		marks[i] = math.NaN()
	}
	for _, r := range rep.Rows {
		if r.Class >= Mistake {
			marks[r.Ply] = ys[r.Ply]
		}
	}
	return chart.Panel{
		Title:  fmt.Sprintf("%dx%d game: Black's chance of winning", rep.Size, rep.Size),
		XLabel: "ply (moves played)", YLabel: "Black's win probability", IntegerX: true,
		Series: []chart.Series{
			{Name: "Black wins", X: xs, Y: ys},
			{Name: "mistake or blunder", X: xs, Y: marks, Marks: true},
		},
		Levels: []chart.Level{{Name: "even", Y: 0.5}},
	}.WithYRange(0, 1)
}
