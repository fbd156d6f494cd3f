// Package kernel is the network's arithmetic, shared by the evaluator's
// forward pass (package net) and the training graph's operations
// (package train), so that both compute the same bits: the matrix
// products (Gemm, RowBLAS, the AVX-512, AVX2+FMA and portable kernels
// and the bf16 backend's), the layer of the network (Linear), the
// gathers and sums around it, and the pool of goroutines they share
// (Parallel).
//
// The tower works on activations laid out as one row per (position, square) and one column
// per channel, (batch·N·N, C), so that a 1x1 convolution is one matrix
// product and a 3x3 one is a gather of the 9 neighbours of every square
// (im2row) and one matrix product, with the bias, the residual input and
// the ReLU fused into the product's output (Linear). Every kernel works
// in float32 and float64 (the gradient check).
package kernel
