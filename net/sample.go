package net

import (
	"fmt"
	"math"

	"github.com/konanezero/konane/rules"
)

// ActionProb is one entry of a sparse policy: an action of the board's
// action space (rules.ActionIndex) and its probability.
type ActionProb struct {
	Action int32
	Prob   float32
}

// Sample is one training example: a position, the target policy (sparse
// over the action space, a distribution over legal moves, usually MCTS
// visit counts normalised), and the target value from the side to move's
// view (the game's outcome, -1 or +1, or a blend). A sample with no policy
// entries is a value-only sample: it trains the value head alone (the
// policy loss is the mean over the samples that have a policy).
type Sample struct {
	Position rules.Position
	Policy   []ActionProb
	Value    float32
}

// Transform returns the sample under a symmetry of the board: the position
// and every action moved by sym. Because the input planes are relative to
// the side to move, every symmetry gives another valid sample.
func (s Sample) Transform(sym rules.Symmetry) Sample {
	n := int(s.Position.Size)
	out := Sample{Position: sym.Position(s.Position), Value: s.Value, Policy: make([]ActionProb, len(s.Policy))}
	for i, ap := range s.Policy {
		m := sym.Move(rules.ActionMove(int(ap.Action), n), n)
		out.Policy[i] = ActionProb{Action: int32(rules.ActionIndex(m, n)), Prob: ap.Prob}
	}
	return out
}

// check reports why s cannot train a size×size network: a bad position, a
// terminal one, a policy entry that is not a legal move or not a
// probability, a policy whose entries sum to 0 (no entries at all is a
// value-only sample), or a value outside [-1, 1]. legal receives the legal
// moves.
func (s Sample) check(size int, legal []rules.Move) ([]rules.Move, error) {
	p := s.Position
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if int(p.Size) != size {
		return nil, fmt.Errorf("position of size %d for a %dx%d network", p.Size, size, size)
	}
	legal = p.LegalMoves(legal[:0])
	if len(legal) == 0 {
		return nil, fmt.Errorf("position has no legal move")
	}
	var sum float64
	for _, ap := range s.Policy {
		m := rules.ActionMove(int(ap.Action), size)
		if m == rules.NoMove || !contains(legal, m) {
			return nil, fmt.Errorf("policy action %d is not a legal move", ap.Action)
		}
		if !(ap.Prob >= 0) || math.IsInf(float64(ap.Prob), 0) {
			return nil, fmt.Errorf("policy probability %v of action %d is not a probability", ap.Prob, ap.Action)
		}
		sum += float64(ap.Prob)
	}
	if len(s.Policy) > 0 && !(sum > 0) {
		return nil, fmt.Errorf("policy sums to 0")
	}
	if !(s.Value >= -1 && s.Value <= 1) {
		return nil, fmt.Errorf("value %v outside [-1, 1]", s.Value)
	}
	return legal, nil
}

func contains(moves []rules.Move, m rules.Move) bool {
	for _, x := range moves {
		if x == m {
			return true
		}
	}
	return false
}
