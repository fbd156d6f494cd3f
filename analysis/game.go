package analysis

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/rules"
)

// Class grades a move by the win probability it loses.
type Class int8

// Classes of moves, from good to bad. The thresholds are on Loss, the
// mover's win probability before the move minus after it:
//
//	inaccuracy  0.05 ≤ loss < 0.10
//	mistake     0.10 ≤ loss < 0.20
//	blunder     0.20 ≤ loss
//
// A move that the solver shows to throw away a forced win loses 1 (the
// probabilities of solved positions are exact) and so is a blunder.
const (
	Good Class = iota
	Inaccuracy
	Mistake
	Blunder
)

// Thresholds of the classes (see Class).
const (
	InaccuracyLoss = 0.05
	MistakeLoss    = 0.10
	BlunderLoss    = 0.20
)

// Classify returns the class of a move that loses loss.
func Classify(loss float64) Class {
	switch {
	case loss >= BlunderLoss:
		return Blunder
	case loss >= MistakeLoss:
		return Mistake
	case loss >= InaccuracyLoss:
		return Inaccuracy
	}
	return Good
}

func (c Class) String() string {
	switch c {
	case Inaccuracy:
		return "inaccuracy"
	case Mistake:
		return "mistake"
	case Blunder:
		return "blunder"
	}
	return ""
}

func (c Class) plural() string {
	if c == Inaccuracy {
		return "inaccuracies"
	}
	return c.String() + "s"
}

// Verdict is the solver's word on a move, when it settled the position
// the move was played in.
type Verdict int8

// Verdicts on a move.
const (
	NoVerdict   Verdict = iota // the position was too large to solve
	KeepsWin                   // a winning move, among others
	OnlyWin                    // the only winning move
	ThrowsWin                  // throws away a forced win
	AlreadyLost                // every move loses
)

func (v Verdict) String() string {
	switch v {
	case KeepsWin:
		return "keeps the win"
	case OnlyWin:
		return "only winning move"
	case ThrowsWin:
		return "throws away a forced win"
	case AlreadyLost:
		return "lost whatever is played"
	}
	return ""
}

// Row is the analysis of one move of a game.
type Row struct {
	Ply    int         // 1-based number of the move
	Player rules.Color // who played it
	Move   rules.Move
	// Before and After are the mover's probability of winning before
	// and after the move; Loss is Before-After, at least 0.
	Before, After, Loss float64
	Class               Class
	// Search is the search of the position before the move: its Best is
	// the agent's choice there, its PV the line the agent expected.
	Search agent.Analysis
	// Line is the line the agent expects after the move played: the
	// move, then the expected line of the position it leads to (just
	// the move when the game ends with it).
	Line    []rules.Move
	Verdict Verdict
	// Candidates are the agent's best moves in the position, at most
	// NumCandidates, its choice first (see Position.Candidates).
	Candidates []Candidate
	// Wide is set in a review by the classical engine (ClassicalGame),
	// whose moves are on the wide layout of every board; Move, Search,
	// Line and Candidates are empty there.
	Wide *WideRow
}

// WideRow is what the classical engine says of one move (Row.Wide).
type WideRow struct {
	Move rules.WideMove
	// PV is the engine's line in the position before the move, its
	// choice first; Line the move played and the engine's line after
	// it (just the move when the game ends with it).
	PV, Line []rules.WideMove
	// Score is the search's score of the position before the move, for
	// the mover (player.SearchResult.Score), and Depth the depth it
	// reached.
	Score, Depth int
}

// move, best, pv and line are the row's move, the engine's choice ("" at
// none), its line and the line played, in the board's notation, from
// either review.
func (r Row) move() string {
	if r.Wide != nil {
		return r.Wide.Move.String()
	}
	return r.Move.String()
}

func (r Row) best() string {
	if pv := r.pv(); len(pv) > 0 {
		return pv[0]
	}
	if r.Wide == nil && r.Search.Best != rules.NoMove {
		return r.Search.Best.String()
	}
	return ""
}

func (r Row) pv() []string {
	if r.Wide != nil {
		return texts(r.Wide.PV)
	}
	return texts(r.Search.PV)
}

func (r Row) line() []string {
	if r.Wide != nil {
		return texts(r.Wide.Line)
	}
	return texts(r.Line)
}

// texts is moves in notation (nil for none).
func texts[M fmt.Stringer](ms []M) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.String())
	}
	return out
}

// NumCandidates is how many candidates a Row keeps.
const NumCandidates = 3

// Candidate is one of the agent's best moves in a position.
type Candidate struct {
	Move rules.Move
	// WinProb is the mover's probability of winning after Move: the
	// search's, or exact (0 or 1) when Exact is settled.
	WinProb float64
	Visits  int
	// Exact is the solver's verdict on the move for the mover: Won when
	// it keeps a forced win, Lost when it loses; Unsolved otherwise.
	Exact Exact
}

// Candidates returns the search's best n moves in p, its choice first,
// then by visits, each with the mover's probability of winning after it
// (exact where the solver settled p).
func (p Position) Candidates(n int) []Candidate {
	var out []Candidate
	a := p.Search
	for _, i := range ranked(a) {
		if len(out) == n {
			break
		}
		c := Candidate{Move: a.Moves[i], WinProb: (float64(a.Q[i]) + 1) / 2, Visits: a.Visits[i]}
		switch {
		case p.Exact == Lost:
			c.Exact = Lost
		case p.Exact == Won && p.Winning != nil:
			c.Exact = Lost
			if slices.Contains(p.Winning, c.Move) {
				c.Exact = Won
			}
		}
		c.WinProb = c.Exact.winProb(c.WinProb)
		out = append(out, c)
	}
	return out
}

// Report is the analysis of a whole game.
type Report struct {
	Size  int         // N on a square board of at most rules.MaxSize, else 0
	Board rules.Board // the game's board and start, on every board
	// Engine says who reviewed the game, for the report's first line:
	// "the agent", or the classical engine with its budget and how its
	// scores became probabilities (ClassicalGame).
	Engine    string
	Positions []Position // the start, then the position after each move
	Rows      []Row      // one per move
	Outcome   Outcome
}

// Outcome is how a game ended, as its rules.Game says (Game.Outcome): the
// winner, and how (rules.NoMoveLeft; rules.Resignation when the record's
// Result tag names a winner before the end; rules.NotOver while the game
// goes on).
type Outcome struct {
	Winner rules.Color // when Over
	Method rules.Method
}

// Over reports whether the game is over.
func (r Outcome) Over() bool { return r.Method != rules.NotOver }

// String is "black wins (white has no move)", "white wins (black
// resigned)" or "unfinished".
func (r Outcome) String() string {
	switch r.Method {
	case rules.NotOver:
		return "unfinished"
	case rules.Resignation:
		return fmt.Sprintf("%s wins (%s resigned)", r.Winner, r.Winner.Other())
	}
	return fmt.Sprintf("%s wins (%s has no move)", r.Winner, r.Winner.Other())
}

// outcomeOf is the Outcome of g (a rules.Game or WideGame).
func outcomeOf(g interface {
	Outcome() (rules.Color, rules.Method)
}) Outcome {
	w, m := g.Outcome()
	return Outcome{Winner: w, Method: m}
}

// Game analyses every position of the game rec (see Evaluate) and grades
// each move. The engine must be running and play rec's board size.
func Game(ctx context.Context, e *agent.Engine, rec *rules.Record, cfg Config) (*Report, error) {
	g, err := rec.Game()
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	ps := g.Positions()
	pos, err := Evaluate(ctx, e, ps, nil, cfg)
	if err != nil {
		return nil, err
	}
	rep := &Report{Size: rec.Size, Board: rec.Board(), Engine: "the agent", Positions: pos, Outcome: outcomeOf(g)}
	for i, m := range rec.Moves {
		before, after := pos[i], pos[i+1]
		r := Row{Ply: i + 1, Player: before.Side, Move: m, Before: before.WinProb,
			After: 1 - after.WinProb, Search: before.Search}
		r.Line = append([]rules.Move{m}, after.Search.PV...)
		r.Loss = max(0, r.Before-r.After)
		r.Class = Classify(r.Loss)
		r.Verdict = verdict(before, after)
		r.Candidates = before.Candidates(NumCandidates)
		rep.Rows = append(rep.Rows, r)
	}
	return rep, nil
}

// verdict is the solver's word on the move from before to after.
func verdict(before, after Position) Verdict {
	switch {
	case before.Exact == Lost:
		return AlreadyLost
	case before.Exact != Won || after.Exact == Unsolved:
		return NoVerdict
	case after.Exact == Won: // the opponent wins now
		return ThrowsWin
	case len(before.Winning) == 1:
		return OnlyWin
	}
	return KeepsWin
}

// Comment is the text of a row as a record comment: the mover's win
// probability before and after, the class, the solver's verdict and the
// agent's line when it differs from the move played.
func (r Row) Comment() string {
	s := fmt.Sprintf("%s %.0f%% -> %.0f%%", r.Player, 100*r.Before, 100*r.After)
	if r.Class != Good {
		s += " " + r.Class.String()
	}
	if r.Verdict == ThrowsWin || r.Verdict == OnlyWin {
		s += ", " + r.Verdict.String()
	}
	if b := r.best(); b != "" && b != r.move() {
		s += "; best " + strings.Join(r.pv(), " ")
	}
	return s
}

// Annotate returns a copy of rec with each row's Comment added to its
// move's comment (after the comment there was, if any), and an Annotator
// tag.
func (rep *Report) Annotate(rec *rules.Record, annotator string) *rules.Record {
	out := &rules.Record{Size: rec.Size, Rect: rec.Rect, Tags: append([]rules.Tag(nil), rec.Tags...),
		Moves: slices.Clone(rec.Moves), Wide: slices.Clone(rec.Wide), Comments: make([]string, rec.Len())}
	for i := range out.Comments {
		c := ""
		if i < len(rep.Rows) {
			c = rep.Rows[i].Comment()
		}
		if i < len(rec.Comments) && rec.Comments[i] != "" {
			c = rec.Comments[i] + " | " + c
		}
		out.Comments[i] = c
	}
	out.SetTag("Annotator", annotator)
	return out
}
