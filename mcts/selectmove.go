package mcts

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// SelectMove chooses the move to play from a search result. Temperature
// 0 plays res.Best. A positive temperature T samples move i with
// probability proportional to Policy[i]^(1/T): in PUCT mode that is the
// visit count to the power 1/T (AlphaZero's exploration in the opening);
// T = 1 samples the policy itself. In Gumbel mode with noise, res.Best is
// already a sample (Gumbel-top-k plays the role of temperature), so
// self-play should use temperature 0 there.
//
// It serves Result and WideResult alike; on an error the move is the
// zero M.
func SelectMove[M any](res ResultOf[M], temperature float64, rng *rand.Rand) (M, error) {
	var none M
	if len(res.Moves) == 0 || len(res.Policy) != len(res.Moves) {
		return none, fmt.Errorf("mcts: select move: the result has %d moves and %d policy entries", len(res.Moves), len(res.Policy))
	}
	if !(temperature >= 0) || math.IsInf(temperature, 1) {
		return none, fmt.Errorf("mcts: select move: temperature %v: want a finite number ≥ 0", temperature)
	}
	if temperature == 0 {
		return res.Best, nil
	}
	if rng == nil {
		return none, fmt.Errorf("mcts: select move: temperature %v needs a random source", temperature)
	}
	// Work with logs so that a small temperature does not overflow.
	top := math.Inf(-1)
	for _, p := range res.Policy {
		if p > 0 {
			top = max(top, math.Log(float64(p))/temperature)
		}
	}
	if math.IsInf(top, -1) {
		return res.Best, nil // no mass anywhere: nothing to sample
	}
	var sum float64
	for _, p := range res.Policy {
		if p > 0 {
			sum += math.Exp(math.Log(float64(p))/temperature - top)
		}
	}
	x := rng.Float64() * sum
	last := 0
	for i, p := range res.Policy {
		if p <= 0 {
			continue
		}
		last = i
		x -= math.Exp(math.Log(float64(p))/temperature - top)
		if x < 0 {
			return res.Moves[i], nil
		}
	}
	return res.Moves[last], nil // rounding: the last move with mass
}

// TemperatureSchedule gives the move-selection temperature by ply (0 =
// the first move of the game): Initial for the first Hold plies, then a
// decay towards Final that halves the remaining gap every HalfLife plies
// (HalfLife 0 switches to Final at once). AlphaZero's rule "temperature 1
// for the first 30 moves, then 0" is {Initial: 1, Hold: 30}; KataGo
// decays smoothly instead, e.g. {Initial: 0.8, Final: 0.2, HalfLife: N}
// for an N×N board.
type TemperatureSchedule struct {
	Initial, Final float64
	Hold, HalfLife int
}

// At returns the temperature for the given ply.
func (t TemperatureSchedule) At(ply int) float64 {
	if ply < t.Hold {
		return t.Initial
	}
	if t.HalfLife <= 0 {
		return t.Final
	}
	return t.Final + (t.Initial-t.Final)*math.Exp2(-float64(ply-t.Hold)/float64(t.HalfLife))
}

// Validate reports a schedule that SelectMove could not use.
func (t TemperatureSchedule) Validate() error {
	switch {
	case !(t.Initial >= 0) || math.IsInf(t.Initial, 1):
		return fmt.Errorf("mcts: temperature schedule: Initial %v: want a finite number ≥ 0", t.Initial)
	case !(t.Final >= 0) || math.IsInf(t.Final, 1):
		return fmt.Errorf("mcts: temperature schedule: Final %v: want a finite number ≥ 0", t.Final)
	case t.Hold < 0:
		return fmt.Errorf("mcts: temperature schedule: Hold %d: want ≥ 0", t.Hold)
	case t.HalfLife < 0:
		return fmt.Errorf("mcts: temperature schedule: HalfLife %d: want ≥ 0", t.HalfLife)
	}
	return nil
}

// PlayoutCap is KataGo's playout cap randomization: each self-play move
// is, with probability FullFraction, a full search (FullSims simulations,
// root noise on, position recorded for training) and otherwise a fast
// one (FastSims, no noise, not recorded). Fast moves keep games cheap
// while the recorded targets come from deep searches. FullFraction 1
// turns the randomization off.
type PlayoutCap struct {
	FullSims, FastSims int
	FullFraction       float64
}

// Choose draws the kind of search for the next move. It returns the
// options for Run and whether the move's result should be recorded as a
// training target.
func (p PlayoutCap) Choose(rng *rand.Rand) (opts RunOptions, record bool) {
	if p.FullFraction >= 1 || rng.Float64() < p.FullFraction {
		return RunOptions{Sims: p.FullSims, Noise: true}, true
	}
	return RunOptions{Sims: p.FastSims, Noise: false}, false
}

// Validate reports a bad field.
func (p PlayoutCap) Validate() error {
	switch {
	case p.FullSims < 1 || p.FullSims > MaxSims:
		return fmt.Errorf("mcts: playout cap: FullSims %d: want 1..%d", p.FullSims, MaxSims)
	case p.FastSims < 1 || p.FastSims > p.FullSims:
		return fmt.Errorf("mcts: playout cap: FastSims %d: want 1..FullSims (%d)", p.FastSims, p.FullSims)
	case !(p.FullFraction > 0 && p.FullFraction <= 1):
		return fmt.Errorf("mcts: playout cap: FullFraction %v: want a number in (0, 1]", p.FullFraction)
	}
	return nil
}
