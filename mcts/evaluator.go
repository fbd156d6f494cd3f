package mcts

import (
	"context"

	"github.com/konanezero/konane/rules"
)

// Prediction is what an Evaluator says of one position.
type Prediction struct {
	// Policy holds one prior probability per legal move, in the order of
	// Position.LegalMoves; it sums to 1 (empty when there is no legal move).
	Policy []float32
	// Value is the expected outcome for the side to move, in [-1, 1].
	Value float32
}

// Evaluator scores positions: one batched call, cancellable, with an error.
// It is declared here, by its consumer; package net implements it with the
// policy-value network, and Uniform implements it for tests and baselines.
// Implementations must be safe for concurrent use.
type Evaluator interface {
	Evaluate(ctx context.Context, positions []rules.Position) ([]Prediction, error)
}

// WideEvaluator is Evaluator for WidePositions (package net's Evaluator
// implements both): the policy of a position in WidePosition.LegalMoves
// order.
type WideEvaluator interface {
	EvaluateWide(ctx context.Context, positions []rules.WidePosition) ([]Prediction, error)
}
