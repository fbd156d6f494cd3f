// Package train trains the networks of package net: the training graph
// (Gorgonia, with the network's operations and their gradients on the
// kernels inference runs, so both compute the same bits), SGD with
// momentum, and checkpoints (net.Checkpoint is their format). Only
// konane-train links it.
//
//	t, err := train.New(m, net.DefaultTrainOptions())
//	losses, err := t.Step(batch)                   // len(batch) == Batch
//	next, err := t.Model(net.Metadata{Generation: 1, Parent: "gen-0000"})
//	err = t.SaveCheckpoint("train.ckpt")           // LoadCheckpoint resumes
package train
