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
// 43.7k, 5.2 and 2.9).
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
// The capture planes were measured on the positions the 6x6 network
// judges worst: the 74,000 children of 12,000 critical positions of
// random games (a throwaway program; the solver labelled each child).
// Value-only training from scratch, 32x2, lr 0.01 (a tenth after 12,000
// steps), batch 64, the same seed; the share of 3,670 held-out children
// whose value has the right sign, after 4,000 / 8,000 / 12,000 / 16,000
// steps:
//
//	EncodingOrigins                      67.9% / 71.7% / 74.6% / 76.7%
//	EncodingCaptures                     73.2% / 75.8% / 76.6% / 77.2%
//	the same and per-direction origins   73.1% / 76.1% / 76.7% / 77.9%
//
// The network learns as much in about half the steps; the lead narrows as
// training goes on. Origins per direction (which would also make the
// planes depend on the board's orientation) did not add beyond noise. The
// capture planes cost 4 more stem inputs (+3% of the 8x8 network's
// arithmetic) and the encoding of the opponent's moves, which the origin
// planes already generate.
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
// OpenBLAS runs one thread per call. Measured (BenchmarkEvaluateCores,
// batch 32, OpenBLAS, one run at load average 15; positions/s):
//
//	GOMAXPROCS  OpenBLAS threads  other core idle  a search on the other core
//	1           1                 2,998            1,507
//	1           2                 1,578              742
//	2           1                 6,776            2,584
//	2           2                 2,303              281
//
// OpenBLAS's own threads spin and fight the helpers: one thread per call.
// The choices for self-play (evaluators, games in flight, batch) are in
// package selfplay's documentation.
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
// Where the time goes (CPU profiles, OpenBLAS). Evaluate at batch 32: the
// BLAS 60%, the gather 18%, bias/residual/ReLU 10%, the pooling and its
// spread 6%; encoding, move generation, softmax, the cache and the
// channel hand-offs each under 2%. A training step: the BLAS 58%, gather
// and scatter 19%, ReLU and its gradient 5%, the loss 3%, Gorgonia's tape
// machine (dispatch, gradient sums) under 5%, encoding and the optimizer
// update under 2%; 730 allocations (17 kB) per step, Gorgonia's. Before this package had its
// own operations (Gorgonia's Conv2d on NCHW, Evaluate at batch 64):
// im2col 40%, layout copies and transposes 20%, BroadcastAdd's Repeat
// 10%, the BLAS 10%, the rest allocation (40 MB and 2,650 allocations per
// call) and dispatch.
//
// BenchmarkSgemm measures the limit: this build's BLAS on the product of
// a convolution of the default 8x8 net at batch 32 (2048x32x288) with 1
// and 2 threads, and in the row blocks the network runs; BenchmarkEvaluate
// reports positions/s, GFLOP/s and the % of the best of the first two,
// measured in the same process; BenchmarkTrainStep samples/s (batch 64).
// Medians of 5, the 8x8 net without the capture planes (5.17
// MFLOP/position, the default until 2026-12-02), on this project's
// 2-core machine shared with other jobs:
//
//	backend   batch  positions/s  GFLOP/s  % of peak
//	OpenBLAS      1        2,291     11.8       16
//	OpenBLAS     16        5,357     27.7       36
//	OpenBLAS     32        4,113     21.3       37
//	OpenBLAS     64        5,741     29.7       37
//	gonum        16        1,025      5.3       70
//	gonum        32        1,621      8.4      117
//	gonum        64        1,328      6.9      101
//
//	backend   BenchmarkSgemm GFLOP/s: 1 thread, 2 threads, row blocks
//	OpenBLAS  30.7, 44.4, 37.3   (88-97 on 1 thread on a quiet machine)
//	gonum      4.1,  3.5,  4.9
//
//	backend   BenchmarkTrainStep samples/s (batch 64)
//	OpenBLAS  1,433
//	gonum       342
//
// (Evaluate and Sgemm at load average 13-15, batch 1 in an earlier run
// at 20-38, TrainStep in a later one at 11-23, where Evaluate at batch 32
// gave 4,399 positions/s, 35% of peak, again.) The peak is what this loaded
// machine gave the BLAS in the same seconds, far below a quiet machine's:
// the percentages compare like with like, the absolute figures do not
// transfer. gonum's one large product is slower than its row blocks, so
// its "peak" is no limit (over 100%). The README has old against new.
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
