package analysis

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// MaxExactOpenings is the largest board whose openings Openings solves
// exactly when asked (6x6 takes seconds; 7x7 is out of reach).
const MaxExactOpenings = 6

// Opening is what the agent, and the solver where it can, says of one
// pair of opening removals: Black's, then White's, after which Black
// makes the first jump; on a board with the gap start (no removals), of
// one of Black's first jumps (White is then rules.NoMove).
type Opening struct {
	Black, White rules.Move
	// WinProb is the search's probability that Black wins (the agent's
	// view, even where the solver knows better).
	WinProb float64
	PV      []rules.Move // the line the agent expects, Black's jump first (White's reply on a gap board)
	Sims    int
	// Exact is the solver's verdict for Black: Won, Lost, or Unsolved
	// when not asked or the board is larger than MaxExactOpenings.
	Exact Exact
}

// Openings analyses every pair of removals of board b (in
// rules.OpeningsFrom order) or, on a board with the gap start, every
// first jump of Black, with the search of cfg (its solver settings are
// not used), and solves each exactly when solve is set and b is a square
// board of at most MaxExactOpenings (taking the values that ship with
// the program, solver.KnownStart, where they are known). The engine, which must be running,
// plays b. cfg.Progress counts the openings searched.
func Openings(ctx context.Context, e *agent.Engine, b rules.Board, cfg Config, solve bool) ([]Opening, error) {
	start, err := b.Position()
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	if int(start.Size) != e.Size() {
		w, h := rules.ShapeDims(e.Size())
		return nil, fmt.Errorf("analysis: the model plays %dx%d, not %s", w, h, b)
	}
	ops := rules.OpeningsFrom(start)
	if b.Start == rules.Gap {
		for _, m := range start.LegalMoves(nil) {
			ops = append(ops, rules.Opening{Black: m, White: rules.NoMove, Position: start.Play(m)})
		}
	}
	ps := make([]rules.Position, len(ops))
	for i, o := range ops {
		ps[i] = o.Position
	}
	cfg.MaxStones = -1 // the agent's own view; the solver runs below
	res, err := Evaluate(ctx, e, ps, nil, cfg)
	if err != nil {
		return nil, err
	}
	out := make([]Opening, len(ops))
	// The values that ship with the program, by opening (Black's removal,
	// White's); an opening they lack is solved where the board allows.
	known := map[[2]rules.Move]bool{}
	if k, ok := solver.KnownStart(b.W); ok && b.Square() && b.Start != rules.Gap {
		for _, r := range k.Openings {
			known[[2]rules.Move{r.Black, r.White}] = r.BlackWins
		}
	}
	var s *solver.Solver
	for i, o := range ops {
		out[i] = Opening{Black: o.Black, White: o.White, WinProb: res[i].Search.WinProbFor(rules.Black),
			PV: res[i].Search.PV, Sims: res[i].Search.Sims}
		if !solve {
			continue
		}
		if blackWins, ok := known[[2]rules.Move{o.Black, o.White}]; ok {
			out[i].Exact = Lost
			if blackWins {
				out[i].Exact = Won
			}
			continue
		}
		if b.Square() && b.W <= MaxExactOpenings {
			if s == nil {
				s = solver.New()
			}
			win, err := s.Solve(ctx, o.Position)
			if err != nil {
				return nil, fmt.Errorf("analysis: solving opening %v %v: %w", o.Black, o.White, err)
			}
			out[i].Exact = Lost
			if win {
				out[i].Exact = Won
			}
		}
	}
	return out, nil
}

// OpeningsJSON is one row of `konane openings --json`.
type OpeningsJSON struct {
	Black   string   `json:"black"`
	White   string   `json:"white"`        // "" on a gap board (Black's first jump alone)
	WinProb float64  `json:"blackWinrate"` // the agent's
	PV      []string `json:"pv"`
	Exact   string   `json:"exact,omitempty"` // "black wins" or "white wins", when solved
}

// OpeningsAsJSON returns the openings in their JSON form.
func OpeningsAsJSON(ops []Opening) []OpeningsJSON {
	out := make([]OpeningsJSON, len(ops))
	for i, o := range ops {
		out[i] = OpeningsJSON{Black: o.Black.String(), White: moveText(o.White, ""), WinProb: round(o.WinProb),
			PV: rules.MoveStrings(o.PV), Exact: exactWinner(o.Exact)}
	}
	return out
}

// moveText is m as text, none for rules.NoMove.
func moveText(m rules.Move, none string) string {
	if m == rules.NoMove {
		return none
	}
	return m.String()
}

func exactWinner(e Exact) string {
	switch e {
	case Won:
		return "black wins"
	case Lost:
		return "white wins"
	}
	return ""
}

// BestRemoval is Black's removal that the agent rates best: the one whose
// worst White reply leaves Black the highest probability, with it (on a
// gap board, whose rows are Black's first jumps, the best jump).
func BestRemoval(ops []Opening) (black rules.Move, worst float64) {
	worstOf := map[rules.Move]float64{}
	var order []rules.Move
	for _, o := range ops {
		w, seen := worstOf[o.Black]
		if !seen {
			order = append(order, o.Black)
			w = math.Inf(1)
		}
		worstOf[o.Black] = math.Min(w, o.WinProb)
	}
	black, worst = rules.NoMove, math.Inf(-1)
	for _, b := range order {
		if worstOf[b] > worst {
			black, worst = b, worstOf[b]
		}
	}
	return black, worst
}

// WriteOpenings writes the openings of board b as a table for people,
// then the agent's choice for Black and, when solved, the exact value of
// the game and how often the agent's view (Black wins above 50%) agrees
// with it.
func WriteOpenings(w io.Writer, b rules.Board, ops []Opening) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "black\twhite\tagent: black wins\texact\tagent's line")
	solved, agree := 0, 0
	for _, o := range ops {
		exact := exactWinner(o.Exact)
		if exact == "" {
			exact = "–"
		} else {
			solved++
			if (o.WinProb > 0.5) == (o.Exact == Won) {
				agree++
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%.0f%%\t%s\t%s\n", o.Black, moveText(o.White, "–"), 100*o.WinProb, exact, rules.MovesText(o.PV))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if m, worst := BestRemoval(ops); m != rules.NoMove && b.Start == rules.Gap {
		fmt.Fprintf(w, "the agent's choice for Black: %s first (Black wins %.0f%%)\n", m, 100*worst)
	} else if m != rules.NoMove {
		fmt.Fprintf(w, "the agent's choice for Black: remove %s (Black wins at least %.0f%% whatever White removes)\n", m, 100*worst)
	}
	if solved == len(ops) && solved > 0 {
		var res []solver.OpeningResult
		var wins []string
		for _, o := range ops {
			res = append(res, solver.OpeningResult{Opening: rules.Opening{Black: o.Black, White: o.White}, BlackWins: o.Exact == Won})
		}
		for _, m := range solver.WinningRemovals(res) {
			wins = append(wins, m.String())
		}
		if len(wins) > 0 {
			fmt.Fprintf(w, "exact: Black wins %s with perfect play, removing %s\n", b, strings.Join(wins, " or "))
		} else {
			fmt.Fprintf(w, "exact: White wins %s with perfect play: every Black removal has a losing reply\n", b)
		}
		fmt.Fprintf(w, "the agent's view agrees with the solver on %d of %d openings\n", agree, solved)
	}
	return nil
}
