package chart

import (
	"image/color"
	"math"
	"strconv"
	"strings"
)

// The house style's sizes, in points.
const (
	titleSize  = 13
	labelSize  = 11
	tickSize   = 9.5
	legendSize = 10
	tickLen    = 4
	thumbWidth = 18
	lineHeight = 1.25 // of a font's size
)

// Colours of the frame.
var (
	black = paint{c: color.RGBA{0, 0, 0, 0xff}, a: 1}
	grid  = paint{c: color.RGBA{0xdd, 0xdd, 0xdd, 0xff}, a: 1}
	dark  = paint{c: color.RGBA{0x33, 0x33, 0x33, 0xff}, a: 1}
)

// fade is colour c at opacity alpha/255.
func fade(c color.RGBA, alpha uint8) paint { return paint{c: c, a: float64(alpha) / 255} }

func solid(c color.RGBA) paint { return paint{c: c, a: 1} }

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// xy is a point of data.
type xy struct{ X, Y float64 }

// points are the points of xs and ys where both are finite.
func points(xs, ys []float64) []xy {
	var out []xy
	for i := range xs {
		if i < len(ys) && finite(xs[i]) && finite(ys[i]) {
			out = append(out, xy{xs[i], ys[i]})
		}
	}
	return out
}

// band is the series' interval (Low to High) as a ring of points, nil
// without one of at least two points.
func (s Series) band() []xy {
	if s.Low == nil || s.High == nil {
		return nil
	}
	var lo, hi []xy
	for k := range s.X {
		if k < len(s.Low) && k < len(s.High) && finite(s.X[k]) && finite(s.Low[k]) && finite(s.High[k]) {
			lo, hi = append(lo, xy{s.X[k], s.Low[k]}), append(hi, xy{s.X[k], s.High[k]})
		}
	}
	if len(lo) <= 1 {
		return nil
	}
	for k := len(hi) - 1; k >= 0; k-- {
		lo = append(lo, hi[k])
	}
	return lo
}

// line is the series' main line: its moving average when smoothed.
func (s Series) line() []xy {
	if s.Smooth {
		return points(s.X, EMA(s.Y, EMASpan))
	}
	return points(s.X, s.Y)
}

// color is the series' colour, the i-th of the palette unless it has
// its own.
func (s Series) color(i int) color.RGBA {
	if s.Color != (color.RGBA{}) {
		return s.Color
	}
	return Palette[i%len(Palette)]
}

// ranges are the panel's data ranges: X over the series, Y over the
// series, their bands and the levels; a flat Y gets a readable range
// around it, and a fixed range (WithYRange) wins.
func (p Panel) ranges() (xlo, xhi, ylo, yhi float64) {
	xlo, xhi, ylo, yhi = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	add := func(pts []xy) {
		for _, pt := range pts {
			xlo, xhi = math.Min(xlo, pt.X), math.Max(xhi, pt.X)
			ylo, yhi = math.Min(ylo, pt.Y), math.Max(yhi, pt.Y)
		}
	}
	for _, s := range p.Series {
		add(points(s.X, s.Y))
		add(s.line())
		add(s.band())
	}
	if math.IsInf(xlo, 1) {
		xlo, xhi = 0, 1
	}
	for _, l := range p.Levels {
		if finite(l.Y) {
			add([]xy{{xlo, l.Y}})
		}
	}
	if math.IsInf(ylo, 1) {
		ylo, yhi = 0, 1
	}
	if xhi-xlo < 1e-9*math.Max(1, math.Abs(xhi)) {
		xlo, xhi = xlo-0.5, xhi+0.5
	}
	if d := yhi - ylo; d < 1e-9*math.Max(1, math.Abs(yhi)) {
		// A flat series: show it in the middle of a readable range.
		pad := math.Max(1e-3, math.Abs(yhi)/10)
		ylo, yhi = ylo-pad, yhi+pad
	} else {
		ylo, yhi = ylo-d/30, yhi+d/30
	}
	if p.fixedY {
		ylo, yhi = p.YMin, p.YMax
	}
	return xlo, xhi, ylo, yhi
}

// A legend entry: its name and how its thumbnail is drawn.
type entry struct {
	name  string
	thumb func(c canvas, x, y float64) // in the box from x, centred on y
}

// legend lists the panel's entries: the series, the levels, and the
// meaning of faint and solid lines when a series is smoothed.
func (p Panel) legend() []entry {
	var out []entry
	smoothed := false
	for i, s := range p.Series {
		c := s.color(i)
		if len(points(s.X, s.Y)) == 0 {
			continue
		}
		smoothed = smoothed || s.Smooth
		if s.Name == "" {
			continue
		}
		switch {
		case s.Marks:
			out = append(out, entry{s.Name, func(cv canvas, x, y float64) { drawGlyph(cv, s.Glyph, c, x+thumbWidth/2, y, markRadius(s.Glyph)) }})
		default:
			out = append(out, entry{s.Name, func(cv canvas, x, y float64) {
				cv.stroke([]point{{x, y}, {x + thumbWidth, y}}, solid(c), 1.8, nil)
				if s.Points {
					drawGlyph(cv, Circle, c, x+thumbWidth/2, y, 2)
				}
			}})
		}
	}
	for i, l := range p.Levels {
		if math.IsNaN(l.Y) {
			continue
		}
		c := Palette[(len(p.Series)+i)%len(Palette)]
		out = append(out, entry{l.Name, func(cv canvas, x, y float64) {
			cv.stroke([]point{{x, y}, {x + thumbWidth, y}}, solid(c), 1.2, levelDash)
		}})
	}
	if smoothed {
		gray := Palette[7]
		out = append(out,
			entry{"measured", func(cv canvas, x, y float64) {
				cv.stroke([]point{{x, y}, {x + thumbWidth, y}}, fade(gray, 0x50), 0.8, nil)
			}},
			entry{"EMA " + strconv.Itoa(EMASpan), func(cv canvas, x, y float64) { cv.stroke([]point{{x, y}, {x + thumbWidth, y}}, solid(gray), 1.8, nil) }})
	}
	return out
}

var levelDash = []float64{5, 3}

// markRadius is the radius of a glyph of Marks.
func markRadius(g Glyph) float64 {
	if g == Circle {
		return 3.5
	}
	return 5
}

// draw draws the panel in r: the title over the plot, the legend in a
// strip on the right, the axes with their ticks and labels, the grid,
// then the data, clipped to the plot's frame.
func (p Panel) draw(c canvas, r rect) {
	xlo, xhi, ylo, yhi := p.ranges()
	xt := ticker{integer: p.IntegerX, second: p.Second, target: p.XTicks}.ticks(xlo, xhi)
	yt := ticker{target: p.YTicks}.ticks(ylo, yhi)

	entries := p.legend()
	legendW := 0.0
	for _, e := range entries {
		legendW = math.Max(legendW, thumbWidth+5+textWidth(e.name, legendSize))
	}
	yTickW, xLines := 0.0, 1
	for _, t := range yt {
		yTickW = math.Max(yTickW, textWidth(t.label, tickSize))
	}
	for _, t := range xt {
		xLines = max(xLines, strings.Count(t.label, "\n")+1)
	}
	plot := rect{
		x0: r.x0 + labelSize*lineHeight + 4 + yTickW + tickLen + 3,
		y0: r.y0 + titleSize*lineHeight + 6,
		x1: r.x1 - 6,
		y1: r.y1 - labelSize*lineHeight - float64(xLines)*tickSize*lineHeight - tickLen - 4,
	}
	if legendW > 0 {
		plot.x1 = r.x1 - legendW - 12
	}
	if plot.x1-plot.x0 < 20 || plot.y1-plot.y0 < 20 {
		return // no room
	}
	px := func(x float64) float64 { return plot.x0 + (x-xlo)/(xhi-xlo)*(plot.x1-plot.x0) }
	py := func(y float64) float64 { return plot.y1 - (y-ylo)/(yhi-ylo)*(plot.y1-plot.y0) }
	toCanvas := func(pts []xy) []point {
		out := make([]point, len(pts))
		for i, pt := range pts {
			out[i] = point{px(pt.X), py(pt.Y)}
		}
		return out
	}

	// Title, grid, data.
	c.text((plot.x0+plot.x1)/2, r.y0+titleSize, p.Title, textStyle{size: titleSize, align: 0.5})
	for _, t := range xt {
		c.stroke([]point{{px(t.value), plot.y0}, {px(t.value), plot.y1}}, grid, 0.5, nil)
	}
	for _, t := range yt {
		c.stroke([]point{{plot.x0, py(t.value)}, {plot.x1, py(t.value)}}, grid, 0.5, nil)
	}
	p.drawData(c, plot, toCanvas, xlo, xhi)

	// Axes, ticks and their labels.
	c.stroke([]point{{plot.x0, plot.y0}, {plot.x0, plot.y1}, {plot.x1, plot.y1}}, black, 0.8, nil)
	for _, t := range xt {
		x := px(t.value)
		c.stroke([]point{{x, plot.y1}, {x, plot.y1 + tickLen}}, black, 0.8, nil)
		for k, line := range strings.Split(t.label, "\n") {
			c.text(x, plot.y1+tickLen+2+tickSize+float64(k)*tickSize*lineHeight, line, textStyle{size: tickSize, align: 0.5})
		}
	}
	for _, t := range yt {
		y := py(t.value)
		c.stroke([]point{{plot.x0 - tickLen, y}, {plot.x0, y}}, black, 0.8, nil)
		c.text(plot.x0-tickLen-3, y+tickSize*0.35, t.label, textStyle{size: tickSize, align: 1})
	}
	c.text((plot.x0+plot.x1)/2, r.y1-2, p.XLabel, textStyle{size: labelSize, align: 0.5})
	c.text(r.x0+labelSize, (plot.y0+plot.y1)/2, p.YLabel, textStyle{size: labelSize, align: 0.5, vertical: true})

	// The legend beside the plot, never on it.
	y := plot.y0 + legendSize/2
	for _, e := range entries {
		x := r.x1 - legendW
		e.thumb(c, x, y)
		c.text(x+thumbWidth+5, y+legendSize*0.35, e.name, textStyle{size: legendSize})
		y += legendSize * 1.6
	}
}

// drawData draws the bands, the lines, the points and marks of the
// series and the levels, clipped to the frame.
func (p Panel) drawData(c canvas, plot rect, toCanvas func([]xy) []point, xlo, xhi float64) {
	for i, s := range p.Series {
		if b := s.band(); b != nil {
			if ring := clipPolygon(toCanvas(b), plot); len(ring) >= 3 {
				c.fill(ring, fade(s.color(i), 0x40))
			}
		}
	}
	for i, s := range p.Series {
		col := s.color(i)
		pts := points(s.X, s.Y)
		if len(pts) == 0 {
			continue
		}
		if s.Marks {
			for _, pt := range toCanvas(s.line()) {
				if plot.contains(pt) {
					drawGlyph(c, s.Glyph, col, pt.X, pt.Y, markRadius(s.Glyph))
				}
			}
			continue
		}
		if s.Smooth {
			for _, part := range clipPolyline(toCanvas(pts), plot) {
				c.stroke(part, fade(col, 0x50), 0.8, nil)
			}
		}
		main := toCanvas(s.line())
		for _, part := range clipPolyline(main, plot) {
			c.stroke(part, solid(col), 1.8, nil)
		}
		if s.Points {
			for _, pt := range main {
				if plot.contains(pt) {
					drawGlyph(c, Circle, col, pt.X, pt.Y, 2)
				}
			}
		}
	}
	for i, l := range p.Levels {
		if math.IsNaN(l.Y) {
			continue
		}
		line := toCanvas([]xy{{xlo, l.Y}, {xhi, l.Y}})
		for _, part := range clipPolyline(line, plot) {
			c.stroke(part, solid(Palette[(len(p.Series)+i)%len(Palette)]), 1.2, levelDash)
		}
	}
}

// drawGlyph draws glyph g of radius r centred on (x, y).
func drawGlyph(c canvas, g Glyph, col color.RGBA, x, y, r float64) {
	switch g {
	case Diamond:
		d := []point{{x, y - r}, {x + r, y}, {x, y + r}, {x - r, y}}
		c.fill(d, solid(col))
		c.stroke(append(d, d[0]), dark, 0.8, nil)
	case Triangle:
		c.fill([]point{{x, y - r}, {x + r*0.87, y + r/2}, {x - r*0.87, y + r/2}}, solid(col))
	case Cross:
		k := r * 0.7
		c.stroke([]point{{x - k, y - k}, {x + k, y + k}}, solid(col), 1.6, nil)
		c.stroke([]point{{x - k, y + k}, {x + k, y - k}}, solid(col), 1.6, nil)
	default:
		c.fill(circle(x, y, r), solid(col))
	}
}

// circle is a polygon close to the circle of radius r around (x, y).
func circle(x, y, r float64) []point {
	n := max(8, int(2*math.Pi*r/1.5))
	out := make([]point, n)
	for i := range out {
		a := 2 * math.Pi * float64(i) / float64(n)
		out[i] = point{x + r*math.Cos(a), y + r*math.Sin(a)}
	}
	return out
}

// A tick of an axis: its value and its label (lines split by "\n").
type tick struct {
	value float64
	label string
}

// ticker puts ticks on round values (whole numbers, if asked), labelled
// with no more decimals than the step needs, with an optional second
// line of label.
type ticker struct {
	integer bool
	second  func(float64) string
	target  int // about how many ticks, when above 0
}

func (t ticker) ticks(lo, hi float64) []tick {
	if !(hi > lo) || !finite(lo) || !finite(hi) {
		return nil
	}
	// At most six ticks unless asked for a number: the smallest round
	// step that gives no more.
	count := func(s float64) float64 { return math.Floor(hi/s+1e-9) - math.Ceil(lo/s-1e-9) + 1 }
	step := niceStep((hi - lo) / 6)
	for count(step) > 6 {
		step = niceStepUp(step * 1.01)
	}
	if t.target > 0 {
		step = niceStep((hi - lo) / float64(t.target))
	}
	if t.integer {
		step = math.Max(1, math.Round(step))
	}
	if !(step > 0) || (hi-lo)/step > 100 || math.Abs(lo/step) > 1e12 || math.Abs(hi/step) > 1e12 {
		return nil
	}
	decimals := min(6, max(0, int(-math.Floor(math.Log10(step)+1e-9))))
	var out []tick
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
		out = append(out, tick{value: v, label: label})
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

// niceStepUp is the smallest of 1, 2 and 5 times a power of ten that is
// at least raw.
func niceStepUp(raw float64) float64 {
	pow := math.Pow(10, math.Floor(math.Log10(raw)+1e-9))
	for _, m := range []float64{1, 2, 5} {
		if m*pow >= raw*(1-1e-9) {
			return m * pow
		}
	}
	return 10 * pow
}
