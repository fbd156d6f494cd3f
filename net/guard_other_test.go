//go:build !linux

package net

// guarded returns n floats (no guard page on this system).
func guarded(n int) []float32 { return make([]float32, n) }
