package selfplay

import (
	"fmt"
	"io"
	"os"

	"github.com/konanezero/konane/chart"
	"github.com/konanezero/konane/runfiles"
)

// ReadMetrics reads a run's DIR/metrics.csv (nil when it does not exist
// yet).
func ReadMetrics(path string) ([]runfiles.Metrics, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	m, err := runfiles.ParseMetrics(data)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	return m, nil
}

// plotMetrics draws the learning curves of the run as a PNG.
func plotMetrics(w io.Writer, all []runfiles.Metrics) error {
	return chart.WritePNG(w, chart.MetricsPanels(all), 2)
}
