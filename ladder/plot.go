package ladder

import (
	"fmt"
	"github.com/konanezero/konane/runfiles"

	"github.com/konanezero/konane/chart"
)

// SavePlot writes the ladder's figure (chart.RatingsPanels) to path as a PNG.
func SavePlot(path string, rows []runfiles.Rating, anchor string) error {
	if err := chart.SavePNG(path, chart.RatingsPanels(rows, anchor), 2); err != nil {
		return fmt.Errorf("ladder: %w", err)
	}
	return nil
}
