// Package kernel is the network's arithmetic, shared by inference
// (package net) and training (net/train) so that both compute the same
// bits: the matrix products (RowBLAS: the AVX-512, AVX2+FMA and portable
// kernels, the bf16 backend's), the network's layer (Linear) with the
// gathers and sums around it, on activations of a row per (position,
// square) and a column per channel, and the goroutines they share
// (Parallel). Every kernel works in float32 and float64 (the gradient
// check). Design: docs/internals/net.md.
package kernel
