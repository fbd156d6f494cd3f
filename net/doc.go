// Package net is the policy-value network of Kōnane Zero, on Gorgonia: the
// input encoding, the residual network, the batched evaluator that MCTS
// consults (it implements mcts.Evaluator), the trainer that self-play
// feeds, and versioned model files.
//
// # Encoding
//
// A position becomes planes of N×N, relative to the side to move
// (Encoding). EncodingOrigins, version 1, has 7: own stones, opponent
// stones, empty squares, a plane of ones during the first removal, one
// during the second, the origins of the side to move's legal moves and the
// origins of the opponent's jumps. EncodingCaptures, version 2, adds 4:
// the stones each side could capture and the squares its jumps would land
// on. A network reads one of them (Config.Captures; new networks read
// version 2, and Model.WithCaptures gives a trained version-1 network the
// new planes with zero weights). Because nothing depends on colour, the 8
// symmetries of the board are valid augmentations (Sample.Transform; the
// trainer draws one per sample with TrainOptions.Augment).
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
// DefaultConfig is 32 filters × 2 blocks with global pooling and the
// capture planes: 44.8k parameters, 5.3 MFLOP per 8x8 evaluation, 3.0
// MFLOP per 6x6 one (without the capture planes, as the shipped models:
// 43.7k, 5.2 and 2.9). The measurements behind this shape and behind the
// capture planes: docs/results/2026-12-02-defaults.md.
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
// results only (2 allocations per call). In an inference graph each
// position's neighbourhoods are gathered into the scratch of the worker
// about to multiply them (no full im2row matrix through memory). The
// matrix products run on the package's own kernel (fmaBLAS: AVX-512 or
// AVX2+FMA assembly chosen at run time, a portable pure-Go FMA elsewhere,
// all bit-identical), or on OpenBLAS with -tags openblas (Backend;
// scripts/build.sh picks it when installed).
//
// Both cores: every product, gather, scatter and elementwise pass is cut
// into blocks (one or a few positions' rows) that the calling goroutine
// and the package's helper goroutines take in turn (parallel, blas.go);
// a block's result does not depend on who computes it or on GOMAXPROCS.
// OpenBLAS runs one thread per call (its own threads spin and fight the
// helpers).
//
// Training runs the same operations under Gorgonia's tape machine with
// their symbolic gradients: the input gradient of a convolution is
// gz·Wᵀ with Wᵀ laid out first and then scattered back (row2im), the
// weight gradient gzᵀ·x by parts of columns and then transposed, so that
// gonum's kernel runs along rows of 9·C entries (its fast case) and the
// parts balance on two cores; ReLU and its gradient work on the bits of
// float32 (no branch to mispredict); the softmax skips masked actions.
// TestGradientCheck checks the gradients numerically in float64,
// TestGradientFloat32MatchesFloat64 the float32 paths against them.
//
// BenchmarkSgemm measures this build's BLAS on the product of a
// convolution of the default 8x8 net at batch 32 (2048x32x288) with 1 and
// 2 threads and in the row blocks the network runs; BenchmarkEvaluate
// reports positions/s, GFLOP/s and the % of the best of the first two,
// measured in the same process; BenchmarkTrainStep samples/s (batch 64);
// BenchmarkEvaluateCores the split between GOMAXPROCS and OpenBLAS
// threads. Their results, where the time goes, and the choices they led
// to: docs/results/2026-12-01-speed.md.
//
// # Determinism
//
// A position's prediction does not depend on the batch it is evaluated in
// or on the evaluator's batch size. The products with a row per (position,
// square) are computed by blocks of exactly one position's rows (OpenBLAS
// computes a row differently depending on its place in a block), and the
// small products with a row per position (value head, global pooling) by
// a plain loop; other products go by blocks of 64 rows (see rowBLAS).
// The work done in parallel is split by the shape alone, never by
// GOMAXPROCS, and a block's result does not depend on the goroutine that
// computes it; the gathered inference product multiplies the same numbers
// in the same blocks as the training graph's (TestTrainingMatchesInference).
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
// The machine of every graph carries a finalizer, so nothing it points to may point back to it (a graph's Read
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
