package chart

import (
	"image"
	"image/draw"
	"image/png"
	"io"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// raster draws a figure into an image, anti-aliased: coordinates in
// points, scale pixels per point.
type raster struct {
	img   *image.RGBA
	scale float64
	z     *vector.Rasterizer // reused from one paint to the next
	err   error              // the first error of a text (the font)
}

func newRaster(w, h, scale float64) *raster {
	return &raster{img: image.NewRGBA(image.Rect(0, 0, int(math.Round(w*scale)), int(math.Round(h*scale)))), scale: scale}
}

func (c *raster) writePNG(w io.Writer) error {
	if c.err != nil {
		return c.err
	}
	return png.Encode(w, c.img)
}

// paint fills the polygons, all of one orientation so that where they
// overlap they cover once, with p. The rasterizer covers their bounding
// box only: a stroke costs its own pixels, not the image's.
func (c *raster) paint(polys [][]point, p paint) {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, poly := range polys {
		for _, q := range poly {
			x0, y0 = math.Min(x0, q.X*c.scale), math.Min(y0, q.Y*c.scale)
			x1, y1 = math.Max(x1, q.X*c.scale), math.Max(y1, q.Y*c.scale)
		}
	}
	box := image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1))+1, int(math.Ceil(y1))+1).Intersect(c.img.Bounds())
	if box.Empty() {
		return
	}
	if c.z == nil {
		c.z = vector.NewRasterizer(box.Dx(), box.Dy())
	} else {
		c.z.Reset(box.Dx(), box.Dy())
	}
	ox, oy := float64(box.Min.X), float64(box.Min.Y)
	for _, poly := range polys {
		if len(poly) < 3 {
			continue
		}
		if area(poly) < 0 {
			rev := make([]point, len(poly))
			for i, q := range poly {
				rev[len(poly)-1-i] = q
			}
			poly = rev
		}
		c.z.MoveTo(float32(poly[0].X*c.scale-ox), float32(poly[0].Y*c.scale-oy))
		for _, q := range poly[1:] {
			c.z.LineTo(float32(q.X*c.scale-ox), float32(q.Y*c.scale-oy))
		}
		c.z.ClosePath()
	}
	c.z.Draw(c.img, box, image.NewUniform(p.premultiplied()), image.Point{})
}

// area is the signed area of a polygon.
func area(poly []point) float64 {
	a := 0.0
	for i, p := range poly {
		q := poly[(i+1)%len(poly)]
		a += p.X*q.Y - q.X*p.Y
	}
	return a / 2
}

func (c *raster) fill(path []point, p paint) {
	if r, ok := pixelRect(path, c.scale); ok && p.a == 1 {
		// An opaque rectangle on whole pixels (the background): copied.
		draw.Draw(c.img, r, image.NewUniform(p.premultiplied()), image.Point{}, draw.Src)
		return
	}
	c.paint([][]point{path}, p)
}

// pixelRect is path as a rectangle of whole pixels, if it is one.
func pixelRect(path []point, scale float64) (image.Rectangle, bool) {
	if len(path) != 4 {
		return image.Rectangle{}, false
	}
	var px [4]image.Point
	for i, q := range path {
		x, y := q.X*scale, q.Y*scale
		if x != math.Round(x) || y != math.Round(y) {
			return image.Rectangle{}, false
		}
		px[i] = image.Pt(int(x), int(y))
	}
	r := image.Rectangle{px[0], px[2]}.Canon()
	if !(px[1] == image.Pt(px[2].X, px[0].Y) && px[3] == image.Pt(px[0].X, px[2].Y)) {
		return image.Rectangle{}, false
	}
	return r, true
}

// stroke draws the line as the union of a quadrilateral per segment and
// a disc at each point (round joins and caps).
func (c *raster) stroke(path []point, p paint, width float64, dash []float64) {
	if len(path) < 2 {
		return
	}
	r := width / 2
	var polys [][]point
	for _, part := range dashes(path, dash) {
		for i := 0; i+1 < len(part); i++ {
			a, b := part[i], part[i+1]
			d := math.Hypot(b.X-a.X, b.Y-a.Y)
			if d == 0 {
				continue
			}
			nx, ny := -(b.Y-a.Y)/d*r, (b.X-a.X)/d*r
			polys = append(polys, []point{{a.X + nx, a.Y + ny}, {b.X + nx, b.Y + ny}, {b.X - nx, b.Y - ny}, {a.X - nx, a.Y - ny}})
		}
		if width*c.scale > 1.5 { // thinner, a disc changes nothing
			for _, q := range part {
				polys = append(polys, circle(q.X, q.Y, r))
			}
		}
	}
	c.paint(polys, p)
}

// text draws s in dark grey, turning it a quarter anticlockwise first
// when it is vertical.
func (c *raster) text(x, y float64, s string, st textStyle) {
	if s == "" {
		return
	}
	fonts.Lock()
	defer fonts.Unlock()
	f, err := face(st.size*c.scale, true)
	if err != nil {
		if c.err == nil {
			c.err = err
		}
		return
	}
	width := font.MeasureString(f, s)
	m := f.Metrics()
	ink := image.NewUniform(dark.premultiplied())
	if !st.vertical {
		d := font.Drawer{Dst: c.img, Src: ink, Face: f,
			Dot: fixed.Point26_6{X: fixed.Int26_6((x*c.scale)*64) - fixed.Int26_6(float64(width)*st.align), Y: fixed.Int26_6(y * c.scale * 64)}}
		d.DrawString(s)
		return
	}
	// Written on a mask of its own, then turned onto the image.
	w, h := width.Ceil()+2, (m.Ascent+m.Descent).Ceil()+2
	mask := image.NewAlpha(image.Rect(0, 0, w, h))
	d := font.Drawer{Dst: mask, Src: image.Opaque, Face: f, Dot: fixed.Point26_6{X: 64, Y: m.Ascent + 64}}
	d.DrawString(s)
	// The mask's point (u, v) goes to (x0 + v, y0 - u): its baseline
	// (v = ascent) on the column x, its middle (align) at y.
	x0 := int(math.Round(x*c.scale)) - m.Ascent.Round() - 1
	y0 := int(math.Round(y*c.scale + float64(width)/64*st.align))
	turned := image.NewAlpha(image.Rect(x0, y0-w+1, x0+h, y0+1))
	for v := 0; v < h; v++ {
		for u := 0; u < w; u++ {
			turned.SetAlpha(x0+v, y0-u, mask.AlphaAt(u, v))
		}
	}
	draw.DrawMask(c.img, turned.Bounds(), ink, image.Point{}, turned, turned.Bounds().Min, draw.Over)
}
