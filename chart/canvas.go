package chart

import (
	"image/color"
	"math"
)

// A canvas is where a figure is drawn, in points with y downwards: an
// SVG document (svgCanvas) or an image (raster).
type canvas interface {
	// fill fills the closed polygon path.
	fill(path []point, p paint)
	// stroke draws the open line path, width points wide, with round
	// joins and caps, dashed by the lengths of dash (on, off, ...) if
	// any.
	stroke(path []point, p paint, width float64, dash []float64)
	// text writes s with its baseline at y, aligned on x by st.align.
	text(x, y float64, s string, st textStyle)
}

// point is a point on a canvas, in points, y downwards.
type point struct{ X, Y float64 }

// paint is an opaque colour at an opacity.
type paint struct {
	c color.RGBA // its alpha is ignored
	a float64    // opacity in [0, 1]
}

// premultiplied is the paint as image/color wants it.
func (p paint) premultiplied() color.RGBA {
	return color.RGBA{uint8(float64(p.c.R)*p.a + 0.5), uint8(float64(p.c.G)*p.a + 0.5), uint8(float64(p.c.B)*p.a + 0.5), uint8(255*p.a + 0.5)}
}

// textStyle is how a text is written.
type textStyle struct {
	size     float64 // in points
	align    float64 // 0: starts at x, 0.5: centred on x, 1: ends at x
	vertical bool    // turned a quarter anticlockwise (read upwards); x is then its baseline
}

// rect is a rectangle from (x0, y0) to (x1, y1).
type rect struct{ x0, y0, x1, y1 float64 }

func (r rect) contains(p point) bool {
	const eps = 1e-6
	return p.X >= r.x0-eps && p.X <= r.x1+eps && p.Y >= r.y0-eps && p.Y <= r.y1+eps
}

func rectPath(r rect) []point {
	return []point{{r.x0, r.y0}, {r.x1, r.y0}, {r.x1, r.y1}, {r.x0, r.y1}}
}

// clipPolygon clips a polygon to r (Sutherland-Hodgman).
func clipPolygon(poly []point, r rect) []point {
	edges := []struct {
		inside func(point) bool
		cut    func(a, b point) point
	}{
		{func(p point) bool { return p.X >= r.x0 }, func(a, b point) point { return atX(a, b, r.x0) }},
		{func(p point) bool { return p.X <= r.x1 }, func(a, b point) point { return atX(a, b, r.x1) }},
		{func(p point) bool { return p.Y >= r.y0 }, func(a, b point) point { return atY(a, b, r.y0) }},
		{func(p point) bool { return p.Y <= r.y1 }, func(a, b point) point { return atY(a, b, r.y1) }},
	}
	out := poly
	for _, e := range edges {
		in := out
		out = nil
		for i, cur := range in {
			prev := in[(i+len(in)-1)%len(in)]
			switch {
			case e.inside(cur) && e.inside(prev):
				out = append(out, cur)
			case e.inside(cur):
				out = append(out, e.cut(prev, cur), cur)
			case e.inside(prev):
				out = append(out, e.cut(prev, cur))
			}
		}
	}
	return out
}

func atX(a, b point, x float64) point {
	return point{x, a.Y + (b.Y-a.Y)*(x-a.X)/(b.X-a.X)}
}

func atY(a, b point, y float64) point {
	return point{a.X + (b.X-a.X)*(y-a.Y)/(b.Y-a.Y), y}
}

// clipPolyline clips a line to r (Liang-Barsky on each segment): the
// parts inside, each a line of its own.
func clipPolyline(line []point, r rect) [][]point {
	var parts [][]point
	var cur []point
	for i := 0; i+1 < len(line); i++ {
		a, b, ok := clipSegment(line[i], line[i+1], r)
		if !ok {
			if cur != nil {
				parts, cur = append(parts, cur), nil
			}
			continue
		}
		if cur == nil || cur[len(cur)-1] != a {
			if cur != nil {
				parts = append(parts, cur)
			}
			cur = []point{a}
		}
		cur = append(cur, b)
	}
	if cur != nil {
		parts = append(parts, cur)
	}
	return parts
}

// clipSegment is the part of the segment ab inside r, if any.
func clipSegment(a, b point, r rect) (point, point, bool) {
	t0, t1 := 0.0, 1.0
	dx, dy := b.X-a.X, b.Y-a.Y
	for _, c := range [][2]float64{{-dx, a.X - r.x0}, {dx, r.x1 - a.X}, {-dy, a.Y - r.y0}, {dy, r.y1 - a.Y}} {
		p, q := c[0], c[1]
		if p == 0 {
			if q < 0 {
				return a, b, false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = math.Max(t0, t)
		} else {
			t1 = math.Min(t1, t)
		}
		if t0 > t1 {
			return a, b, false
		}
	}
	return point{a.X + t0*dx, a.Y + t0*dy}, point{a.X + t1*dx, a.Y + t1*dy}, true
}

// dashes splits a line into its dashes: on for dash[0] points, off for
// dash[1], and so on (the whole line without dash).
func dashes(line []point, dash []float64) [][]point {
	if len(dash) == 0 {
		return [][]point{line}
	}
	var out [][]point
	k, left, on := 0, dash[0], true
	var cur []point
	if on {
		cur = []point{line[0]}
	}
	for i := 0; i+1 < len(line); i++ {
		a, b := line[i], line[i+1]
		seg := math.Hypot(b.X-a.X, b.Y-a.Y)
		pos := 0.0
		for seg-pos > left {
			pos += left
			p := point{a.X + (b.X-a.X)*pos/seg, a.Y + (b.Y-a.Y)*pos/seg}
			if on {
				out = append(out, append(cur, p))
				cur = nil
			} else {
				cur = []point{p}
			}
			on = !on
			k = (k + 1) % len(dash)
			left = dash[k]
		}
		left -= seg - pos
		if on {
			cur = append(cur, b)
		}
	}
	if on && len(cur) > 1 {
		out = append(out, cur)
	}
	return out
}
