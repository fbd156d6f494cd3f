// Package net is the policy-value network of Kōnane Zero: the input
// encoding, the residual network, the batched evaluator that MCTS
// consults (it implements mcts.Evaluator), the training options, samples
// and checkpoint format that package net/train uses, and versioned model
// files. Inference is plain Go over net/internal/kernel, without
// Gorgonia (which only net/train uses).
//
// The design and its reasons: docs/internals/net.md.
//
// # Usage
//
//	m, err := net.New(net.DefaultConfig(6), seed) // or net.Load(path)
//	e, err := net.NewEvaluator(m, net.DefaultEvalOptions())
//	g, ctx := errgroup.WithContext(ctx)
//	g.Go(func() error { return e.Run(ctx) })      // the batching goroutine
//	preds, err := e.Evaluate(ctx, positions)       // from many goroutines
//	err = e.SetWeights(next)                       // same passes, new weights
package net
