package selfplay

import (
	"fmt"
	"io"
	"os"

	"github.com/konanezero/konane/chart"
	"github.com/konanezero/konane/runfiles"
)

// Metrics are the figures of one generation, one row of DIR/metrics.csv
// (runfiles.Metrics, which owns the file's format).
type Metrics = runfiles.Metrics

// ReadMetrics reads a run's DIR/metrics.csv (nil when it does not exist
// yet).
func ReadMetrics(path string) ([]Metrics, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	m, err := ParseMetrics(data)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	return m, nil
}

// ParseMetrics reads the contents of a metrics.csv (runfiles.ParseMetrics).
func ParseMetrics(data []byte) ([]Metrics, error) { return runfiles.ParseMetrics(data) }

// plotMetrics draws the learning curves of the run as a PNG.
func plotMetrics(w io.Writer, all []Metrics) error {
	return chart.WritePNG(w, chart.MetricsPanels(all), 2)
}
