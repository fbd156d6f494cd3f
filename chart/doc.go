// Package chart draws the figures of a training run — learning curves and
// the Elo ladder — in one house style, as PNG files (metrics.png, elo.png)
// or as SVG for the dashboard:
//
//   - the legend beside the data, never on it;
//   - integer ticks on integer axes (generations), with an optional second
//     line under each tick (the training hours at that generation);
//   - noisy series drawn faint as measured, with their exponential moving
//     average on top: ema(1) = y(1), ema(t) = α·y(t) + (1-α)·ema(t-1),
//     α = 2/(EMASpan+1), so a value's weight halves after about 7 points;
//   - intervals as shaded bands, reference levels as dashed horizontal lines;
//   - a unit in every axis label, chosen by the caller.
//
// A figure is a list of Panels; the caller says what each panel holds,
// chart draws it, with its own small renderer (the standard library and
// golang.org/x/image: text in Go Regular, anti-aliased): no plotting
// library, no fonts beyond one. The figures of a run's files (package runfiles) are
// here: MetricsPanels for metrics.csv, RatingsPanels for the ladder's
// ratings.csv.
package chart
