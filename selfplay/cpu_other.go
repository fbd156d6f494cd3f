//go:build !unix

package selfplay

// processCPU is not measured here: 0.
func processCPU() float64 { return 0 }
