// Package train trains the networks of package net: the training graph
// of a network (Gorgonia, with the network's own operations and their
// symbolic gradients, on the kernels that inference runs, so that both
// compute the same bits), stochastic gradient descent with momentum, and
// the trainer's checkpoints (their file format is net's Checkpoint).
// Only the training binary, konane-train, links it: a player needs
// inference only.
//
// # Usage
//
//	t, err := train.New(m, net.DefaultTrainOptions())
//	losses, err := t.Step(batch)                   // len(batch) == Batch
//	next, err := t.Model(net.Metadata{Generation: 1, Parent: "gen-0000"})
//	err = next.Save("gen-0001.safetensors")
//	err = t.SaveCheckpoint("train.ckpt")           // LoadCheckpoint resumes
package train
