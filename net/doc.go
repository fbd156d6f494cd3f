// Package net is the policy-value network of Kōnane Zero: the input
// encoding, the residual network, the batched evaluator that MCTS
// consults (it implements mcts.Evaluator; plain Go), the trainer that
// self-play feeds (on Gorgonia), and versioned model files.
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
//
//	t, err := net.NewTrainer(m, net.DefaultTrainOptions())
//	losses, err := t.Step(batch)                   // len(batch) == Batch
//	next, err := t.Model(net.Metadata{Generation: 1, Parent: "gen-0000"})
//	err = next.Save("gen-0001.safetensors")
//	err = t.SaveCheckpoint("train.ckpt")           // LoadCheckpoint resumes
package net
