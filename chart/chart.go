package chart

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"

	"github.com/konanezero/konane/internal/atomicfile"
)

// EMASpan is the span of the moving average of smoothed series.
const EMASpan = 10

// Length is a length on a figure in points (1/72 inch).
type Length float64

// Units of Length.
const (
	Point Length = 1
	Inch  Length = 72
)

// Glyph is the shape of a series' marks (Series.Marks).
type Glyph int

// The glyphs: kinds of events told apart without colour.
const (
	Circle   Glyph = iota // filled circle (the zero Glyph)
	Diamond               // filled diamond outlined in dark grey (the page's inaccuracy)
	Triangle              // filled triangle pointing up
	Cross                 // a diagonal cross
)

var glyphNames = [...]string{Circle: "circle", Diamond: "diamond", Triangle: "triangle", Cross: "cross"}

// String names the glyph.
func (g Glyph) String() string {
	if g >= 0 && int(g) < len(glyphNames) {
		return glyphNames[g]
	}
	return fmt.Sprintf("Glyph(%d)", int(g))
}

// Series is one line of a panel. Points whose Y (or band bound) is NaN
// are left out.
type Series struct {
	Name string
	X, Y []float64
	// Smooth draws Y faint and its moving average (EMA) on top.
	Smooth bool
	// Low and High, when set (as long as X), are drawn as a band.
	Low, High []float64
	// Points marks each point (for sparse series such as ratings).
	Points bool
	// Marks draws the points alone, larger, without a line (for events
	// on another series, such as the mistakes of a game).
	Marks bool
	// Glyph is the shape of Marks (the zero Glyph: a circle), so that
	// kinds of events can be told apart without colour.
	Glyph Glyph
	// Color replaces the palette's colour when not zero.
	Color color.RGBA
}

// Level is a horizontal reference line, such as an anchor's rating.
type Level struct {
	Name string
	Y    float64
}

// Panel is one plot of a figure.
type Panel struct {
	Title          string
	XLabel, YLabel string // with units, e.g. "loss (nats)"
	Series         []Series
	Levels         []Level
	// IntegerX puts ticks on whole numbers only.
	IntegerX bool
	// XTicks, when above 0, is about how many X ticks to label (a round
	// step: 1, 2, 5, 10, ...); 0 leaves the number to the chart (at
	// most six).
	XTicks int
	// YTicks is XTicks for the Y axis.
	YTicks int
	// Second, when not nil, gives a second line under each X tick label
	// (for example the hours of training at a generation).
	Second func(x float64) string
	// YMin and YMax fix the Y range when set by WithYRange; the zero
	// Panel leaves both free.
	YMin, YMax float64
	fixedY     bool
}

// WithYRange returns p with its Y axis fixed to [lo, hi].
func (p Panel) WithYRange(lo, hi float64) Panel {
	p.YMin, p.YMax, p.fixedY = lo, hi, true
	return p
}

// EMA returns the exponential moving average of ys with span n (see the
// package documentation); NaN values are carried over without updating it.
func EMA(ys []float64, n int) []float64 {
	alpha := 2 / (float64(n) + 1)
	out := make([]float64, len(ys))
	ema := math.NaN()
	for i, y := range ys {
		switch {
		case math.IsNaN(y):
		case math.IsNaN(ema):
			ema = y
		default:
			ema = alpha*y + (1-alpha)*ema
		}
		out[i] = ema
	}
	return out
}

// Palette is the colour cycle of series (Tableau 10).
var Palette = []color.RGBA{
	{0x1f, 0x77, 0xb4, 0xff}, {0xd6, 0x27, 0x28, 0xff}, {0x2c, 0xa0, 0x2c, 0xff}, {0xff, 0x7f, 0x0e, 0xff},
	{0x94, 0x67, 0xbd, 0xff}, {0x8c, 0x56, 0x4b, 0xff}, {0xe3, 0x77, 0xc2, 0xff}, {0x7f, 0x7f, 0x7f, 0xff},
	{0xbc, 0xbd, 0x22, 0xff}, {0x17, 0xbe, 0xcf, 0xff},
}

// Panel sizes of the PNG figures.
var (
	PanelWidth  = 5.5 * Inch
	PanelHeight = 3 * Inch
)

// pngDPI is the resolution of the PNG figures: 10 inches are 1000
// pixels.
const pngDPI = 100

// WritePNG draws the panels as a PNG image, cols panels per row, each
// PanelWidth by PanelHeight.
func WritePNG(w io.Writer, panels []Panel, cols int) error {
	return WritePNGSize(w, panels, cols, PanelWidth, PanelHeight)
}

// WritePNGSize is WritePNG with panels of the given size (at 100 dots
// per inch: 10 inches are 1000 pixels).
func WritePNGSize(w io.Writer, panels []Panel, cols int, width, height Length) error {
	if len(panels) == 0 {
		return errors.New("chart: no panel to draw")
	}
	cols = max(1, min(cols, len(panels)))
	rows := (len(panels) + cols - 1) / cols
	c := newRaster(float64(width)*float64(cols), float64(height)*float64(rows), pngDPI/72.0)
	render(c, panels, cols, float64(width), float64(height))
	return c.writePNG(w)
}

// SavePNG writes the figure to path atomically.
func SavePNG(path string, panels []Panel, cols int) error {
	return atomicfile.Write(path, 0o644, func(w io.Writer) error { return WritePNG(w, panels, cols) })
}

// WriteSVG draws one panel as an SVG document of the given size, with
// no XML prologue (so that it can stand inside HTML) and no external
// resource.
func WriteSVG(w io.Writer, p Panel, width, height Length) error {
	c := newSVG(float64(width), float64(height))
	render(c, []Panel{p}, 1, float64(width), float64(height))
	_, err := c.WriteTo(w)
	return err
}

// render draws the panels on c in a grid of cols columns of tiles of
// w by h points, on white.
func render(c canvas, panels []Panel, cols int, w, h float64) {
	rows := (len(panels) + cols - 1) / cols
	c.fill(rectPath(rect{0, 0, w * float64(cols), h * float64(rows)}), paint{c: color.RGBA{0xff, 0xff, 0xff, 0xff}, a: 1})
	for i, p := range panels {
		x, y := float64(i%cols)*w, float64(i/cols)*h
		p.draw(c, rect{x + 6, y + 6, x + w - 6, y + h - 6})
	}
}
