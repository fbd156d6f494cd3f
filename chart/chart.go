package chart

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/konanezero/konane/internal/atomicfile"
)

// EMASpan is the span of the moving average of smoothed series.
const EMASpan = 10

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
	// Glyph is the shape of Marks (nil: a circle), so that kinds of
	// events can be told apart without colour.
	Glyph draw.GlyphDrawer
	// Color replaces the palette's colour when not zero.
	Color color.RGBA
}

// DiamondGlyph is a filled diamond outlined in dark grey: the page's mark
// of an inaccuracy (web/static/review.js), which gonum's glyphs lack.
type DiamondGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (DiamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	p := make(vg.Path, 0, 5)
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Close()
	c.SetColor(sty.Color)
	c.Fill(p)
	c.SetLineStyle(draw.LineStyle{Color: color.RGBA{0x33, 0x33, 0x33, 0xff}, Width: vg.Points(0.8)})
	c.Stroke(p)
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
	// step: 1, 2, 5, 10, ...); 0 leaves the number to the plot.
	XTicks int
	// YTicks is XTicks for the Y axis.
	YTicks int
	// Second, when not nil, gives a second line under each X tick label
	// (for example the hours of training at a generation).
	Second func(x float64) string
	// YMin and YMax, when not NaN, fix the Y range (as for a percentage);
	// the zero Panel leaves both free.
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

func fade(c color.RGBA, alpha uint8) color.Color {
	// Premultiplied, as color.RGBA wants.
	f := float64(alpha) / 255
	return color.RGBA{uint8(float64(c.R) * f), uint8(float64(c.G) * f), uint8(float64(c.B) * f), alpha}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// points are the points of xs and ys where both are finite.
func points(xs, ys []float64) plotter.XYs {
	var out plotter.XYs
	for i := range xs {
		if i < len(ys) && finite(xs[i]) && finite(ys[i]) {
			out = append(out, plotter.XY{X: xs[i], Y: ys[i]})
		}
	}
	return out
}

// build makes the plot of p and its legend (drawn beside it by draw).
func (p Panel) build() (*plot.Plot, *plot.Legend, error) {
	pl, leg := p.newPlot()
	xmin, xmax := math.Inf(1), math.Inf(-1)
	smoothed := false
	for i, s := range p.Series {
		c := Palette[i%len(Palette)]
		if s.Color != (color.RGBA{}) {
			c = s.Color
		}
		for _, pt := range points(s.X, s.Y) {
			xmin, xmax = math.Min(xmin, pt.X), math.Max(xmax, pt.X)
		}
		if err := s.addBand(pl, c); err != nil {
			return nil, nil, err
		}
		if err := s.add(pl, &leg, c); err != nil {
			return nil, nil, err
		}
		smoothed = smoothed || s.Smooth && len(points(s.X, s.Y)) > 0
	}
	if math.IsInf(xmin, 1) {
		xmin, xmax = 0, 1
	}
	if err := p.addLevels(pl, &leg, xmin, xmax); err != nil {
		return nil, nil, err
	}
	if smoothed {
		gray := Palette[7]
		raw, _ := plotter.NewLine(plotter.XYs{{}, {X: 1}})
		raw.Color, raw.Width = fade(gray, 0x50), vg.Points(0.8)
		ema, _ := plotter.NewLine(plotter.XYs{{}, {X: 1}})
		ema.Color, ema.Width = gray, vg.Points(1.8)
		leg.Add("measured", raw)
		leg.Add("EMA "+strconv.Itoa(EMASpan), ema)
	}
	p.setAxes(pl)
	return pl, &leg, nil
}

// newPlot returns the panel's empty plot, titled and gridded, and its
// legend.
func (p Panel) newPlot() (*plot.Plot, plot.Legend) {
	pl := plot.New()
	for _, sty := range []*text.Style{&pl.Title.TextStyle, &pl.X.Label.TextStyle, &pl.Y.Label.TextStyle,
		&pl.X.Tick.Label, &pl.Y.Tick.Label} {
		sty.Font.Typeface, sty.Font.Variant = sans.Typeface, sans.Variant
	}
	pl.Title.Text = p.Title
	pl.Title.TextStyle.Font.Size = vg.Points(13)
	pl.X.Label.Text, pl.Y.Label.Text = p.XLabel, p.YLabel
	pl.Add(plotter.NewGrid())
	leg := plot.NewLegend()
	leg.Top, leg.Left = true, true
	leg.TextStyle.Font = font.Font{Typeface: sans.Typeface, Variant: sans.Variant, Size: vg.Points(10)}
	leg.ThumbnailWidth = vg.Points(18)
	return pl, leg
}

// addBand draws the series' interval (Low to High) as a faded band, when
// it has one of at least two points.
func (s Series) addBand(pl *plot.Plot, c color.RGBA) error {
	if s.Low == nil || s.High == nil {
		return nil
	}
	var lo, hi plotter.XYs
	for k := range s.X {
		if k < len(s.Low) && k < len(s.High) && finite(s.X[k]) && finite(s.Low[k]) && finite(s.High[k]) {
			lo, hi = append(lo, plotter.XY{X: s.X[k], Y: s.Low[k]}), append(hi, plotter.XY{X: s.X[k], Y: s.High[k]})
		}
	}
	if len(lo) <= 1 {
		return nil
	}
	ring := append(plotter.XYs{}, lo...)
	for k := len(hi) - 1; k >= 0; k-- {
		ring = append(ring, hi[k])
	}
	band, err := plotter.NewPolygon(ring)
	if err != nil {
		return err
	}
	band.Color = fade(c, 0x40)
	band.LineStyle.Width = 0
	pl.Add(band)
	return nil
}

// add draws the series itself (marks, or a line with optional points,
// smoothed if asked) in colour c and names it in the legend.
func (s Series) add(pl *plot.Plot, leg *plot.Legend, c color.RGBA) error {
	pts := points(s.X, s.Y)
	if len(pts) == 0 {
		return nil
	}
	main := pts
	if s.Smooth {
		raw, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		raw.Color, raw.Width = fade(c, 0x50), vg.Points(0.8)
		pl.Add(raw)
		main = points(s.X, EMA(s.Y, EMASpan))
	}
	if s.Marks {
		sc, err := plotter.NewScatter(main)
		if err != nil {
			return err
		}
		sc.GlyphStyle.Color, sc.GlyphStyle.Shape, sc.GlyphStyle.Radius = c, draw.CircleGlyph{}, vg.Points(3.5)
		if s.Glyph != nil {
			sc.GlyphStyle.Shape, sc.GlyphStyle.Radius = s.Glyph, vg.Points(5)
		}
		pl.Add(sc)
		if s.Name != "" {
			leg.Add(s.Name, sc)
		}
		return nil
	}
	line, err := plotter.NewLine(main)
	if err != nil {
		return err
	}
	line.Color, line.Width = c, vg.Points(1.8)
	pl.Add(line)
	thumbs := []plot.Thumbnailer{line}
	if s.Points {
		sc, err := plotter.NewScatter(main)
		if err != nil {
			return err
		}
		sc.GlyphStyle.Color, sc.GlyphStyle.Shape, sc.GlyphStyle.Radius = c, draw.CircleGlyph{}, vg.Points(2)
		pl.Add(sc)
		thumbs = append(thumbs, sc)
	}
	if s.Name != "" {
		leg.Add(s.Name, thumbs...)
	}
	return nil
}

// addLevels draws the panel's horizontal reference levels from xmin to
// xmax, dashed, each in the colour after the series'.
func (p Panel) addLevels(pl *plot.Plot, leg *plot.Legend, xmin, xmax float64) error {
	for i, l := range p.Levels {
		if math.IsNaN(l.Y) {
			continue
		}
		line, err := plotter.NewLine(plotter.XYs{{X: xmin, Y: l.Y}, {X: xmax, Y: l.Y}})
		if err != nil {
			return err
		}
		line.Color = Palette[(len(p.Series)+i)%len(Palette)]
		line.Width, line.Dashes = vg.Points(1.2), []vg.Length{vg.Points(5), vg.Points(3)}
		pl.Add(line)
		leg.Add(l.Name, line)
	}
	return nil
}

// setAxes sets the ticks and the y range: a flat series gets a readable
// range around it, and a fixed range (fixedY) wins.
func (p Panel) setAxes(pl *plot.Plot) {
	if p.IntegerX || p.Second != nil || p.XTicks > 0 {
		pl.X.Tick.Marker = intTicks{integer: p.IntegerX, second: p.Second, target: p.XTicks}
	}
	pl.Y.Tick.Marker = intTicks{target: p.YTicks}
	if d := pl.Y.Max - pl.Y.Min; finite(d) && d < 1e-9*math.Max(1, math.Abs(pl.Y.Max)) {
		// A flat series: show it in the middle of a readable range.
		pad := math.Max(1e-3, math.Abs(pl.Y.Max)/10)
		pl.Y.Min, pl.Y.Max = pl.Y.Min-pad, pl.Y.Max+pad
	}
	if p.fixedY {
		pl.Y.Min, pl.Y.Max = p.YMin, p.YMax
	}
}

// intTicks puts major ticks on round values (whole numbers, if asked),
// labelled with no more decimals than the step needs, with an optional
// second line of label.
type intTicks struct {
	integer bool
	second  func(float64) string
	target  int // about how many ticks, when above 0
}

func (t intTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	var major []float64
	for _, tk := range ticks {
		if tk.Label != "" {
			major = append(major, tk.Value)
		}
	}
	step := 1.0
	if len(major) > 1 {
		step = major[1] - major[0]
	}
	if t.target > 0 && hi > lo {
		step = niceStep((hi - lo) / float64(t.target))
	}
	if t.integer {
		step = math.Max(1, math.Round(step))
	}
	decimals := min(6, max(0, int(-math.Floor(math.Log10(step)+1e-9))))
	var out []plot.Tick
	if !(step > 0) || (hi-lo)/step > 100 || math.Abs(lo/step) > 1e12 || math.Abs(hi/step) > 1e12 {
		return ticks
	}
	for k := math.Ceil(lo/step - 1e-9); k*step <= hi+1e-9*step; k++ {
		v := k * step
		label := strconv.FormatFloat(v, 'f', decimals, 64)
		if v == 0 || strings.Trim(label, "-0.") == "" {
			label = strings.TrimPrefix(label, "-") // "-0", "-0.0"
		}
		if t.second != nil {
			if s := t.second(v); s != "" {
				label += "\n" + s
			}
		}
		out = append(out, plot.Tick{Value: v, Label: label})
	}
	if len(out) == 0 {
		return ticks
	}
	return out
}

// niceStep is the largest of 1, 2 and 5 times a power of ten that is at
// most raw.
func niceStep(raw float64) float64 {
	pow := math.Pow(10, math.Floor(math.Log10(raw)+1e-9))
	for _, m := range []float64{5, 2, 1} {
		if m*pow <= raw*(1+1e-9) {
			return m * pow
		}
	}
	return pow
}

// draw draws the panel on c: the plot on the left, the legend in a strip
// on the right.
func (p Panel) draw(c draw.Canvas) error {
	pl, leg, err := p.build()
	if err != nil {
		return err
	}
	plotC := c
	if r := leg.Rectangle(c); r.Size().X > 0 {
		w := r.Size().X + vg.Points(8)
		plotC = draw.Crop(c, 0, -w, 0, 0)
		legC := draw.Crop(c, c.Max.X-c.Min.X-w+vg.Points(6), 0, 0, -pl.Title.TextStyle.Height(pl.Title.Text)-vg.Points(10))
		leg.Draw(legC)
	}
	pl.Draw(plotC)
	return nil
}

// Render draws the panels on one canvas in a grid of cols columns.
func Render(dc draw.Canvas, panels []Panel, cols int) error {
	if len(panels) == 0 {
		return errors.New("chart: no panel to draw")
	}
	cols = max(1, min(cols, len(panels)))
	rows := (len(panels) + cols - 1) / cols
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadTop: vg.Points(6), PadBottom: vg.Points(6),
		PadLeft: vg.Points(6), PadRight: vg.Points(6), PadX: vg.Points(14), PadY: vg.Points(14)}
	for i, p := range panels {
		if err := p.draw(tiles.At(dc, i%cols, i/cols)); err != nil {
			return fmt.Errorf("chart: %s: %w", p.Title, err)
		}
	}
	return nil
}

// Panel sizes of the PNG figures.
var (
	PanelWidth  = 5.5 * vg.Inch
	PanelHeight = 3 * vg.Inch
)

// WritePNG draws the panels as a PNG image, cols panels per row, each
// PanelWidth by PanelHeight.
func WritePNG(w io.Writer, panels []Panel, cols int) error {
	return WritePNGSize(w, panels, cols, PanelWidth, PanelHeight)
}

// WritePNGSize is WritePNG with panels of the given size (at 100 dots
// per inch: 10 inches are 1000 pixels).
func WritePNGSize(w io.Writer, panels []Panel, cols int, width, height vg.Length) error {
	if len(panels) == 0 {
		return errors.New("chart: no panel to draw")
	}
	cols = max(1, min(cols, len(panels)))
	rows := (len(panels) + cols - 1) / cols
	img := vgimg.NewWith(vgimg.UseWH(width*vg.Length(cols), height*vg.Length(rows)), vgimg.UseDPI(100))
	dc := draw.New(img)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	if err := Render(dc, panels, cols); err != nil {
		return err
	}
	_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}

// SavePNG writes the figure to path atomically.
func SavePNG(path string, panels []Panel, cols int) error {
	return atomicfile.Write(path, 0o644, func(w io.Writer) error { return WritePNG(w, panels, cols) })
}

// WriteSVG draws one panel as an SVG document of the given size.
func WriteSVG(w io.Writer, p Panel, width, height vg.Length) error {
	c := vgsvg.New(width, height)
	if err := Render(draw.New(c), []Panel{p}, 1); err != nil {
		return err
	}
	_, err := c.WriteTo(w)
	return err
}

// sans is the font of every text: sans-serif reads better at small sizes,
// on screens and on phones.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}
