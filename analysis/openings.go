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

// move is a move of a board: rules.Move on the boards a Position holds,
// rules.WideMove on every board.
type move interface {
	comparable
	String() string
}

// OpeningOf is what the agent, and the solver where it can, says of one
// pair of opening removals: Black's, then White's, after which Black
// makes the first jump; on a board with the gap start (no removals), of
// one of Black's first jumps (White is then noMove: rules.NoMove or
// rules.NoWideMove).
type OpeningOf[M move] struct {
	Black, White M
	// WinProb is the search's probability that Black wins (the agent's
	// view, even where the solver knows better).
	WinProb float64
	PV      []M // the line the agent expects, Black's jump first (White's reply on a gap board)
	Sims    int
	// Exact is the solver's verdict for Black: Won, Lost, or Unsolved
	// when not asked or the board is larger than MaxExactOpenings.
	Exact Exact
}

// Opening is an opening of a board up to 8x8 (Openings).
type Opening = OpeningOf[rules.Move]

// WideOpening is an opening of a board above 8x8 (WideOpenings).
type WideOpening = OpeningOf[rules.WideMove]

// noMove is M's move that is never legal: rules.NoMove or
// rules.NoWideMove.
func noMove[M move]() M {
	var m M
	switch p := any(&m).(type) {
	case *rules.Move:
		*p = rules.NoMove
	case *rules.WideMove:
		*p = rules.NoWideMove
	}
	return m
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

// WideOpenings is Openings on a board above 8x8: every pair of removals
// (Black's, then White's) or, with the gap start, every first jump of
// Black, each searched with the network of the engine, which must be
// running and play b (agent.Engines.GetBoard), one after the other with
// cfg's limits and seed; cfg.Progress counts the openings searched. No
// solver reaches these boards: Exact is Unsolved.
func WideOpenings(ctx context.Context, e *agent.Engine, b rules.Board, cfg Config) ([]WideOpening, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if b.Narrow() || e.Size() != rules.ShapeCode(b.W, b.H) {
		w, h := rules.ShapeDims(e.Size())
		return nil, fmt.Errorf("analysis: WideOpenings: the engine plays %dx%d, the board is %s (a board above 8x8 wanted)", w, h, b)
	}
	start, err := b.WidePosition()
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	type line struct {
		black, white rules.WideMove
		p            rules.WidePosition
	}
	var lines []line
	for _, m := range start.LegalMoves(nil) {
		p := start.Play(m)
		if b.Start == rules.Gap {
			lines = append(lines, line{m, rules.NoWideMove, p})
			continue
		}
		for _, r := range p.LegalMoves(nil) {
			lines = append(lines, line{m, r, p.Play(r)})
		}
	}
	out := make([]WideOpening, len(lines))
	for i, l := range lines {
		a, err := e.NewAgent(cfg.Seed ^ uint64(i))
		if err != nil {
			return nil, err
		}
		an, err := a.AdviseAny(ctx, l.p, cfg.Limits)
		if err != nil {
			return nil, fmt.Errorf("analysis: opening %v %v: %w", l.black, l.white, err)
		}
		out[i] = WideOpening{Black: l.black, White: l.white, WinProb: an.WinProbFor(rules.Black), PV: an.PV, Sims: an.Sims}
		if cfg.Progress != nil {
			cfg.Progress(i+1, len(lines))
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
func OpeningsAsJSON[M move](ops []OpeningOf[M]) []OpeningsJSON {
	out := make([]OpeningsJSON, len(ops))
	for i, o := range ops {
		out[i] = OpeningsJSON{Black: o.Black.String(), White: moveText(o.White, ""), WinProb: round(o.WinProb),
			PV: append([]string{}, texts(o.PV)...), Exact: exactWinner(o.Exact)}
	}
	return out
}

// moveText is m as text, none for noMove.
func moveText[M move](m M, none string) string {
	if m == noMove[M]() {
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
func BestRemoval[M move](ops []OpeningOf[M]) (black M, worst float64) {
	worstOf := map[M]float64{}
	var order []M
	for _, o := range ops {
		w, seen := worstOf[o.Black]
		if !seen {
			order = append(order, o.Black)
			w = math.Inf(1)
		}
		worstOf[o.Black] = math.Min(w, o.WinProb)
	}
	black, worst = noMove[M](), math.Inf(-1)
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
func WriteOpenings[M move](w io.Writer, b rules.Board, ops []OpeningOf[M]) error {
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
		fmt.Fprintf(tw, "%s\t%s\t%.0f%%\t%s\t%s\n", o.Black, moveText(o.White, "–"), 100*o.WinProb, exact, strings.Join(texts(o.PV), " "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if m, worst := BestRemoval(ops); m != noMove[M]() && b.Start == rules.Gap {
		fmt.Fprintf(w, "the agent's choice for Black: %s first (Black wins %.0f%%)\n", m, 100*worst)
	} else if m != noMove[M]() {
		fmt.Fprintf(w, "the agent's choice for Black: remove %s (Black wins at least %.0f%% whatever White removes)\n", m, 100*worst)
	}
	if solved == len(ops) && solved > 0 {
		var res []solver.OpeningResult
		var wins []string
		for _, o := range ops {
			black, _ := any(o.Black).(rules.Move) // solved: a board up to MaxExactOpenings
			white, _ := any(o.White).(rules.Move)
			res = append(res, solver.OpeningResult{Opening: rules.Opening{Black: black, White: white}, BlackWins: o.Exact == Won})
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
