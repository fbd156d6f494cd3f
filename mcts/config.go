package mcts

import (
	"errors"
	"fmt"
	"math"
)

// Config holds the tunable constants of a Search. Start from DefaultConfig
// and change what you need; Validate reports the first bad field.
type Config struct {
	// Sims is the number of simulations of a Run whose RunOptions.Sims is 0.
	Sims int

	// Gumbel selects the search of Danihelka et al. 2022 ("Policy
	// improvement by planning with Gumbel"): Gumbel-top-k sampling of
	// GumbelSampled root moves, Sequential Halving over them, the improved
	// policy softmax(logits + σ(completed Q)) as the training target, and the
	// paper's deterministic selection below the root. When false the search
	// is AlphaZero's PUCT with Dirichlet root noise and the visit
	// distribution as the training target.
	Gumbel bool

	// CPuct is the PUCT exploration constant c_init. The effective constant
	// grows with the parent's visits N as c_init + ln((N+CPuctBase+1)/CPuctBase)
	// (AlphaZero's schedule); CPuctBase 0 keeps it constant. PUCT mode only.
	CPuct     float64
	CPuctBase float64

	// FPUReduction sets first-play urgency, the value assumed for a child
	// not yet visited: the parent's mean value minus FPUReduction times the
	// square root of the prior mass of the children already visited
	// (Leela Zero / KataGo). 0 makes unvisited children look as good as
	// their parent. PUCT mode only (Gumbel completes Q with the mixed value).
	FPUReduction float64

	// PolicyTemp is the temperature of the priors: the search uses
	// p^(1/PolicyTemp), renormalized, instead of the evaluator's p (Leela
	// Chess Zero's policy softmax temperature). Above 1 it flattens the
	// priors, so that a move the network all but rules out still gets
	// visits; 0 (the default, so that configurations saved before it
	// existed keep their meaning) and 1 use the priors as they are.
	PolicyTemp float64

	// DirichletAlpha is the total concentration of the root noise: each of
	// the n legal moves gets alpha = DirichletAlpha/n (KataGo's scaling, so
	// the noise has the same shape whatever the number of moves).
	// NoiseFraction is the weight of the noise in the root priors
	// (AlphaZero: 0.25). PUCT mode with RunOptions.Noise only.
	DirichletAlpha float64
	NoiseFraction  float64

	// GumbelSampled is m, the number of root moves Sequential Halving
	// considers (16 in the paper's board-game experiments; without noise
	// they are the m highest priors, so with equal priors the first m
	// moves: keep m ≥ the number of moves then). CVisit and CScale define σ(q̂) = (CVisit + max_b N(b)) ·
	// CScale · q̂, where q̂ = (Q+1)/2 is the completed Q mapped to [0,1]
	// (defaults: CVisit 50 as in the paper, CScale 0.1 as mctx's
	// value_scale; on 4x4/5x5 positions with random-playout values 0.1
	// found the solver's winning move more often than 1). Gumbel mode only.
	GumbelSampled int
	CVisit        float64
	CScale        float64

	// LeafBatch is the number of leaves a Search gathers, under virtual
	// loss, before one Evaluate call. 1 is exact sequential MCTS; larger
	// values trade a little search quality for fewer, larger evaluator calls.
	LeafBatch int

	// Reuse keeps the subtree of the previous Run when the next Run starts
	// from the same position or one reached from it in one or two moves.
	Reuse bool

	// Solver turns on MCTS-Solver: positions without moves and positions
	// the exact solver settles carry proven values, proofs back up
	// exactly, the search never spends a visit on a move proven to lose
	// while another is not, and a Run stops when its root is proven (see
	// Result.Proven). Off, the search is plain MCTS.
	Solver bool

	// SolveNodes is the node budget of the exact solver on a leaf, or on
	// a new root, with at most SolveStones stones (see SmallEnough);
	// a leaf it settles within the budget becomes a proven node and is
	// never sent to the evaluator. 0 turns the endgame solver off. With
	// Solver only.
	SolveNodes  int
	SolveStones int
}

// DefaultConfig returns the defaults: PUCT mode, 200 simulations.
func DefaultConfig() Config {
	return Config{
		Sims:           200,
		Gumbel:         false,
		CPuct:          1.25,
		CPuctBase:      19652,
		FPUReduction:   0.2,
		DirichletAlpha: 10,
		NoiseFraction:  0.25,
		GumbelSampled:  16,
		CVisit:         50,
		CScale:         0.1,
		LeafBatch:      1,
		Reuse:          true,
		Solver:         true,
		SolveNodes:     DefaultSolveNodes,
		SolveStones:    DefaultSolveStones,
	}
}

// Defaults of the endgame solver inside the search (see SmallEnough).
const (
	DefaultSolveNodes  = 3000
	DefaultSolveStones = 30
)

// MaxSolveNodes bounds Config.SolveNodes.
const MaxSolveNodes = 1 << 30

// MinPolicyTemp and MaxPolicyTemp bound a Config.PolicyTemp other than 0.
const (
	MinPolicyTemp = 0.1
	MaxPolicyTemp = 10
)

// MaxLeafBatch bounds Config.LeafBatch.
const MaxLeafBatch = 256

// Validate reports the first field that is out of range.
func (c Config) Validate() error {
	bad := func(field string, v any, want string) error {
		return fmt.Errorf("mcts: config %s = %v: want %s", field, v, want)
	}
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case c.Sims < 1:
		return bad("Sims", c.Sims, "at least 1")
	case !finite(c.CPuct) || c.CPuct <= 0:
		return bad("CPuct", c.CPuct, "a positive number")
	case !finite(c.CPuctBase) || c.CPuctBase < 0:
		return bad("CPuctBase", c.CPuctBase, "0 (constant c) or a positive number")
	case !finite(c.FPUReduction) || c.FPUReduction < 0 || c.FPUReduction > 2:
		return bad("FPUReduction", c.FPUReduction, "a number in [0, 2]")
	case c.PolicyTemp != 0 && !(c.PolicyTemp >= MinPolicyTemp && c.PolicyTemp <= MaxPolicyTemp):
		return bad("PolicyTemp", c.PolicyTemp, fmt.Sprintf("0 (none) or a number in [%v, %v]", MinPolicyTemp, MaxPolicyTemp))
	case !finite(c.DirichletAlpha) || c.DirichletAlpha <= 0:
		return bad("DirichletAlpha", c.DirichletAlpha, "a positive number")
	case !finite(c.NoiseFraction) || c.NoiseFraction < 0 || c.NoiseFraction > 1:
		return bad("NoiseFraction", c.NoiseFraction, "a number in [0, 1]")
	case c.GumbelSampled < 1:
		return bad("GumbelSampled", c.GumbelSampled, "at least 1")
	case !finite(c.CVisit) || c.CVisit < 0:
		return bad("CVisit", c.CVisit, "a number ≥ 0")
	case !finite(c.CScale) || c.CScale < 0:
		return bad("CScale", c.CScale, "a number ≥ 0")
	case c.LeafBatch < 1 || c.LeafBatch > MaxLeafBatch:
		return bad("LeafBatch", c.LeafBatch, fmt.Sprintf("1..%d", MaxLeafBatch))
	case c.SolveNodes < 0 || c.SolveNodes > MaxSolveNodes:
		return bad("SolveNodes", c.SolveNodes, fmt.Sprintf("0 (off) to %d", MaxSolveNodes))
	case c.SolveStones < 0:
		return bad("SolveStones", c.SolveStones, "a number ≥ 0")
	}
	return nil
}

// ErrNoMoves is returned by Run for a position whose side to move has no
// legal move: the game is over and that side has lost.
var ErrNoMoves = errors.New("mcts: the side to move has no legal move (the game is over)")
