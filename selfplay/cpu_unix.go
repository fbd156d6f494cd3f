//go:build unix

package selfplay

import "syscall"

// processCPU is the CPU time, user and system, in seconds, that this
// process has used so far (all its threads).
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	secs := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return secs(ru.Utime) + secs(ru.Stime)
}
