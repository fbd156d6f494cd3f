package chart

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
)

// svgCanvas writes a figure as an SVG document, in points.
type svgCanvas struct {
	buf bytes.Buffer
}

func newSVG(w, h float64) *svgCanvas {
	c := &svgCanvas{}
	fmt.Fprintf(&c.buf, `<svg xmlns="http://www.w3.org/2000/svg" width="%spt" height="%spt" viewBox="0 0 %s %s" font-family="Go, 'DejaVu Sans', Arial, sans-serif">`+"\n",
		num(w), num(h), num(w), num(h))
	return c
}

// WriteTo ends the document and writes it.
func (c *svgCanvas) WriteTo(w io.Writer) (int64, error) {
	c.buf.WriteString("</svg>\n")
	n, err := w.Write(c.buf.Bytes())
	return int64(n), err
}

// num writes a coordinate with two decimals at most.
func num(x float64) string {
	s := strconv.FormatFloat(x, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

func pathData(path []point, closed bool) string {
	var b strings.Builder
	for i, p := range path {
		if i == 0 {
			b.WriteString("M")
		} else {
			b.WriteString("L")
		}
		b.WriteString(num(p.X) + " " + num(p.Y))
	}
	if closed {
		b.WriteString("Z")
	}
	return b.String()
}

func colorAttrs(kind string, p paint) string {
	s := fmt.Sprintf(`%s="#%02x%02x%02x"`, kind, p.c.R, p.c.G, p.c.B)
	if p.a < 1 {
		s += fmt.Sprintf(` %s-opacity="%s"`, kind, strconv.FormatFloat(p.a, 'f', 3, 64))
	}
	return s
}

func (c *svgCanvas) fill(path []point, p paint) {
	if len(path) < 3 {
		return
	}
	fmt.Fprintf(&c.buf, "<path d=%q %s/>\n", pathData(path, true), colorAttrs("fill", p))
}

func (c *svgCanvas) stroke(path []point, p paint, width float64, dash []float64) {
	if len(path) < 2 {
		return
	}
	extra := ""
	if len(dash) > 0 {
		var ds []string
		for _, d := range dash {
			ds = append(ds, num(d))
		}
		extra = fmt.Sprintf(` stroke-dasharray="%s"`, strings.Join(ds, " "))
	}
	fmt.Fprintf(&c.buf, "<path d=%q fill=\"none\" %s stroke-width=\"%s\" stroke-linejoin=\"round\" stroke-linecap=\"round\"%s/>\n",
		pathData(path, false), colorAttrs("stroke", p), num(width), extra)
}

func (c *svgCanvas) text(x, y float64, s string, st textStyle) {
	if s == "" {
		return
	}
	anchor := "start"
	switch {
	case st.align == 0.5:
		anchor = "middle"
	case st.align == 1:
		anchor = "end"
	}
	rotate := ""
	if st.vertical {
		rotate = fmt.Sprintf(` transform="rotate(-90 %s %s)"`, num(x), num(y))
	}
	// The width measured in Go Regular, which the layout made room for,
	// whatever font the reader has.
	fmt.Fprintf(&c.buf, "<text x=\"%s\" y=\"%s\" fill=\"#333333\" font-size=\"%s\" text-anchor=\"%s\" textLength=\"%s\" lengthAdjust=\"spacingAndGlyphs\"%s>%s</text>\n",
		num(x), num(y), num(st.size), anchor, num(textWidth(s, st.size)), rotate, html.EscapeString(s))
}
