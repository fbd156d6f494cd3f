// Package net is the policy-value network of Kōnane Zero, on Gorgonia: the
// input encoding, the residual network, the batched evaluator that MCTS
// consults (it implements mcts.Evaluator), the trainer that self-play
// feeds, and versioned model files.
//
// # Encoding
//
// A position becomes NumPlanes planes of N×N, relative to the side to
// move (EncodingVersion 1): own stones, opponent stones, empty squares, a
// plane of ones during the first removal, one during the second, the
// origins of the side to move's legal moves and the origins of the
// opponent's jumps. Because nothing depends on colour, the 8 symmetries
// of the board are valid augmentations (Sample.Transform; the trainer
// draws one per sample with TrainOptions.Augment).
//
// The policy covers the fixed action space of rules.NumActions(N): N*N
// removals and every on-board jump (origin, direction, hop count), a
// bijection with rules.Move through rules.ActionIndex and
// rules.ActionMove. Illegal actions are masked before the softmax, in
// training and in the evaluator, whose Prediction.Policy holds one prior
// per legal move in rules.LegalMoves order.
//
// # Network
//
// Config: a 3x3 stem, Blocks residual blocks of two 3x3 convolutions with
// Filters channels (with KataGo's global-pooling bias when GlobalPool: the
// channel means of the first convolution, through a learnt matrix, bias
// the input of the second), a policy head of two 1x1 convolutions giving
// one logit per (plane, origin square), and a value head on the spatial
// mean of the tower (ValueHidden units, then tanh; the side to move's
// view). There is no batch normalisation: the blocks use Fixup-style
// initialisation (second convolution zero, first scaled by Blocks^-1/2),
// so the training and inference graphs compute exactly the same function
// and there are no running statistics to keep.
//
// DefaultConfig is 32 filters × 2 blocks with global pooling: 43.5k
// parameters, 5.2 MFLOP per 8x8 evaluation, 2.9 MFLOP per 6x6 one.
// TestMeasureArchitectures (build tag measure) trains variants for 600
// steps of 64 on 6000 solver-labelled 5x5 positions; held-out value MSE /
// policy cross-entropy on 1000 others:
//
//	32x2 with global pooling            0.326 / 1.035
//	32x2 without global pooling         0.331 / 1.034
//	32x2 without the two origin planes  0.376 / 1.036
//	32x3 with global pooling            0.334 / 1.033
//
// The origin planes clearly help the value; global pooling helps it a
// little (one seed: within noise) for a negligible cost; a third block
// did not help at this budget and costs 50% more time. Throughput: see
// below.
//
// The loss is the cross-entropy of the masked policy against the target
// distribution plus the squared value error plus WeightDecay·Σw² over the
// weights; the optimiser is SGD with momentum and a step schedule with
// linear warm-up (TrainOptions). Checkpoints hold the weights, the
// momentum, the step, the options and the augmentation generator, so a
// resumed run continues bit for bit.
//
// # Files
//
// Models and checkpoints are safetensors files (float32 tensors, little
// endian) whose metadata records the format and encoding versions, board
// size, architecture, generation, training steps, parent, seed, creation
// time and a SHA-256 checksum of everything. Load, Decode and
// LoadCheckpoint check it all (every length and offset against the file
// before anything is allocated, every weight finite) and fail with one
// error wrapping ErrFormat, ErrVersion, ErrCorrupt or ErrNotFinite;
// LoadForSize adds ErrSize. FuzzDecode and FuzzLoadCheckpoint fuzz the
// readers. Writes are atomic (internal/atomicfile).
//
// # Throughput
//
// The graphs are built from the package's own Gorgonia operations
// (ops.go): activations are (position·square, channel) rows, a 3x3
// convolution is a gather of every square's neighbourhood (im2row) and
// one matrix product with bias, residual and ReLU fused into its output,
// every operation owns its output and reuses it, and an inference graph
// runs as a plan of those operations (no tape machine): a network run
// allocates nothing (TestRunAllocatesNothing), and Evaluate allocates its
// results only (2 allocations per call). The BLAS is gonum's pure Go, or
// OpenBLAS with -tags openblas (Backend; scripts/build.sh picks it when
// installed). BenchmarkSgemm measures the limit, BenchmarkEvaluate the
// positions/s, GFLOP/s and % of that limit (see the README for the
// figures).
//
// Where the time went before (CPU profile of Evaluate at batch 64 with
// OpenBLAS, Gorgonia's Conv2d on NCHW): im2col 40%, copies and
// transposes between the NCHW and matrix layouts 20%, BroadcastAdd's
// Repeat 10%, the BLAS itself 10%, the rest allocation (40 MB and 2,650
// allocations per call) and dispatch. After: the BLAS 45%, im2row 30%,
// the fused bias/ReLU and the small value-head products 7%; encoding,
// move generation, the cache and the channel hand-offs each under 2%.
// Training (tape machine, symbolic gradients of the same operations):
// the BLAS 35%, im2row and its scatter 30%.
//
// # Determinism
//
// A position's prediction does not depend on the batch it is evaluated in
// or on the evaluator's batch size. The products with a row per (position,
// square) are computed by blocks of exactly one position's rows (OpenBLAS
// computes a row differently depending on its place in a block), and the
// small products with a row per position (value head, global pooling) by
// a plain loop; other products go by blocks of 64 rows (see rowBLAS).
// TestReferenceForward checks the evaluator against a direct float64
// implementation of the network. New, training and augmentation are
// seeded. A training run is reproduced bit for bit with the same backend
// on the same kind of CPU.
//
// # Gorgonia notes
//
// Graph construction is serialised by a package mutex (Gorgonia's node
// counter is global). Gorgonia's tape machine reuses the memory of dead
// nodes and updates values in place: the losses are read from their
// operations, never from nodes, and training outputs through Read nodes.
// (Gorgonia v0.9.18's Sum and Mean over two axes and tensor v0.9.24's
// LogSoftMax, which needed work-arounds before, are no longer used.) The
// machine of every graph carries a
// finalizer, so nothing it points to may point back to it (a graph's Read
// destinations live apart from the graph, in outputs): Go never collects
// such a cycle, and each graph built would stay in memory for good. Each
// regression has a test.
//
// # Usage
//
//	m, err := net.New(net.DefaultConfig(6), seed) // or net.Load(path)
//	e, err := net.NewEvaluator(m, net.DefaultEvalOptions())
//	g, ctx := errgroup.WithContext(ctx)
//	g.Go(func() error { return e.Run(ctx) })      // the batching goroutine
//	preds, err := e.Evaluate(ctx, positions)       // from many goroutines
//	err = e.SetWeights(next)                       // same graphs, new weights
//
//	t, err := net.NewTrainer(m, net.DefaultTrainOptions())
//	losses, err := t.Step(batch)                   // len(batch) == Batch
//	next, err := t.Model(net.Metadata{Generation: 1, Parent: "gen-0000"})
//	err = next.Save("gen-0001.safetensors")
//	err = t.SaveCheckpoint("train.ckpt")           // LoadCheckpoint resumes
package net
