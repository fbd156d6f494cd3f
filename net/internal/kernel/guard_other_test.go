//go:build !linux

package kernel

// guarded returns n floats (no guard page on this system).
func guarded(n int) []float32 { return make([]float32, n) }
