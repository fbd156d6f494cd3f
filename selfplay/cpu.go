package selfplay

import (
	"os"
	"strconv"
	"strings"
)

// loadAverage is the machine's load average over the last minute (Linux's
// /proc/loadavg), 0 where it is not known.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0
	}
	return v
}
