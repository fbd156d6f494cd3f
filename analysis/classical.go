package analysis

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// ScoreScale is the classical engine's score (player.SearchResult.Score)
// that ScoreWinProb maps to a win probability of 1/(1+e⁻¹) ≈ 73%. The
// engine's evaluation counts 4 per move of mobility
// (player.EvalDefault), so that is about ten moves more than the
// opponent has.
const ScoreScale = 40

// ScoreWinProb is the side to move's probability of winning after a
// search by the classical engine: exact, 1 or 0 (Won or Lost), when the
// search proved the result, else the logistic 1/(1+exp(-Score/ScoreScale))
// of its score: 0.5 at 0, rising with the score, never 0 or 1.
func ScoreWinProb(r player.WideResult) (float64, Exact) {
	if solved, wins, _ := r.Solved(); solved {
		if wins {
			return 1, Won
		}
		return 0, Lost
	}
	return 1 / (1 + math.Exp(-float64(r.Score)/ScoreScale)), Unsolved
}

// ClassicalConfig says how the classical engine reviews a game.
type ClassicalConfig struct {
	// Depth, when set, is the depth of every position's search, which
	// then has no time limit (the same seed gives the same review, on
	// any machine); else Time is each position's search time.
	Depth int
	Time  time.Duration
	Seed  uint64 // seeds the engine (its order of the moves at the root)
	// Progress, when set, is called after each position with the number
	// analysed and the total.
	Progress func(done, total int)
}

// ClassicalGame reviews the game rec, on any board, with the classical
// engine (player.NewPVS, on the wide layout): it searches every position
// in turn, to cfg.Depth or for cfg.Time, and grades each move as Game
// does, from win probabilities ScoreWinProb makes of the scores. Its
// rows have no candidates (the engine ranks only its choice) and their
// moves in Row.Wide; a proved win is Exact, but the winning moves are
// not listed, so a verdict is "keeps the win" where Game's could say
// "only winning move".
func ClassicalGame(ctx context.Context, rec *rules.Record, cfg ClassicalConfig) (*Report, error) {
	if cfg.Depth < 0 || cfg.Time < 0 || (cfg.Depth == 0 && cfg.Time == 0) {
		return nil, fmt.Errorf("analysis: classical depth %d and time %v: want a depth or a time per position", cfg.Depth, cfg.Time)
	}
	g, err := rec.WideGame()
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	ps, moves := g.Positions(), g.Moves()
	budget := fmt.Sprintf("depth %d", cfg.Depth)
	if cfg.Depth == 0 {
		budget = cfg.Time.String()
	}
	rep := &Report{Size: rec.Size, Board: rec.Board(), Outcome: outcomeOf(g),
		Engine: fmt.Sprintf("the classical engine (pvs, %s per position; win probability 1/(1+exp(-score/%d)))", budget, ScoreScale)}
	moveTime := cfg.Time
	if cfg.Depth > 0 {
		moveTime = 0
	}
	e := player.NewPVS(cfg.Depth, moveTime, cfg.Seed)
	results := make([]player.WideResult, len(ps))
	for i, p := range ps {
		pos := Position{Ply: i, Side: p.Turn, Search: agent.Analysis{Side: p.Turn, ResultOf: mcts.Result{Best: rules.NoMove}}}
		if p.HasMoves() {
			results[i] = e.SearchWide(ctx, p, cfg.Depth)
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		} else {
			results[i] = player.WideResult{Score: -player.WinScore}
		}
		pos.WinProb, pos.Exact = ScoreWinProb(results[i])
		rep.Positions = append(rep.Positions, pos)
		if cfg.Progress != nil {
			cfg.Progress(i+1, len(ps))
		}
	}
	for i, m := range moves {
		before, after := rep.Positions[i], rep.Positions[i+1]
		w := &WideRow{Move: m, PV: results[i].PV, Line: append([]rules.WideMove{m}, results[i+1].PV...),
			Score: results[i].Score, Depth: results[i].Depth}
		r := Row{Ply: i + 1, Player: before.Side, Move: rules.NoMove, Before: before.WinProb, After: 1 - after.WinProb,
			Search: before.Search, Wide: w, Verdict: verdict(before, after)}
		r.Loss = max(0, r.Before-r.After)
		r.Class = Classify(r.Loss)
		rep.Rows = append(rep.Rows, r)
	}
	return rep, nil
}
