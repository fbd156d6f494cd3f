package chart

import (
	"bytes"
	"image/png"
	"math"
	"strings"
	"testing"
)

func TestEMA(t *testing.T) {
	// α = 2/(3+1) = 0.5: each value halves the distance to the new one.
	got := EMA([]float64{4, 8, math.NaN(), 0, 2}, 3)
	want := []float64{4, 6, 6, 3, 2.5}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("EMA = %v, want %v", got, want)
		}
	}
	if got := EMA([]float64{math.NaN(), 1}, 3); !math.IsNaN(got[0]) || got[1] != 1 {
		t.Errorf("EMA starting with NaN = %v, want [NaN 1]", got)
	}
}

func TestIntegerTicks(t *testing.T) {
	tk := ticker{integer: true, second: func(x float64) string {
		if x == 4 {
			return "2 h"
		}
		return ""
	}}
	ticks := tk.ticks(1, 7)
	var labels []string
	for _, x := range ticks {
		if x.value != math.Round(x.value) {
			t.Errorf("tick at %g is not a whole number", x.value)
		}
		labels = append(labels, x.label)
	}
	if got := strings.Join(labels, "|"); !strings.Contains(got, "4\n2 h") || strings.Contains(got, ".") {
		t.Errorf("labels %q: want whole numbers and \"4\\n2 h\"", got)
	}
	for _, x := range (ticker{}).ticks(0, 0.5) {
		if x.label != "" && len(x.label) > 4 {
			t.Errorf("label %q of a step of 0.1 has too many decimals", x.label)
		}
	}
	// At most six ticks, on round values, unless asked for more.
	for _, c := range []struct{ lo, hi float64 }{{1, 84}, {0, 1}, {-130, 410}, {0.2, 0.35}, {1, 2}} {
		ts := (ticker{}).ticks(c.lo, c.hi)
		if len(ts) < 2 || len(ts) > 6 {
			t.Errorf("ticks of [%g, %g]: %d, want 2 to 6", c.lo, c.hi, len(ts))
		}
	}
	if ts := (ticker{target: 10}).ticks(0, 100); len(ts) != 11 {
		t.Errorf("ten ticks asked on [0, 100]: %d", len(ts))
	}
}

func testPanels() []Panel {
	x := []float64{1, 2, 3, 4, 5}
	return []Panel{
		{Title: "losses", XLabel: "generation", YLabel: "loss (nats)", IntegerX: true,
			Series: []Series{{Name: "policy", X: x, Y: []float64{2, 1.8, math.NaN(), 1.5, 1.4}, Smooth: true}}},
		Panel{Title: "strength", XLabel: "generation", YLabel: "Elo", Levels: []Level{{Name: "random (0)", Y: 0}},
			Series: []Series{{Name: "gen", X: x, Y: []float64{0, 50, 80, 120, 160}, Low: []float64{-50, 0, 30, 70, 100},
				High: []float64{50, 100, 130, 170, 220}, Points: true}}}.WithYRange(-100, 300),
		{Title: "empty", XLabel: "x", YLabel: "y"},
	}
}

func TestWritePNG(t *testing.T) {
	var buf bytes.Buffer
	if err := WritePNG(&buf, testPanels(), 2); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	// 2 columns and 2 rows of 5.5 x 3 inch panels at 100 dpi.
	if b := img.Bounds(); b.Dx() != 1100 || b.Dy() != 600 {
		t.Errorf("image %v, want 1100x600", b)
	}
	// On white, with the lines in the palette's colours and dark text.
	blue, dark := 0, 0
	for y := 0; y < 600; y++ {
		for x := 0; x < 1100; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			switch {
			case r>>8 == 0x1f && g>>8 == 0x77 && b>>8 == 0xb4:
				blue++
			case r>>8 < 0x60 && g>>8 < 0x60 && b>>8 < 0x60:
				dark++
			}
		}
	}
	if r, g, b, _ := img.At(0, 0).RGBA(); r != 0xffff || g != 0xffff || b != 0xffff || blue < 200 || dark < 2000 {
		t.Errorf("corner %x %x %x, %d pixels of the first series' blue, %d dark: want white, a line and text", r, g, b, blue, dark)
	}
	if err := WritePNG(&buf, nil, 2); err == nil {
		t.Error("no panels: no error")
	}
}

func TestWriteSVG(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSVG(&buf, testPanels()[1], 400, 250); err != nil {
		t.Fatal(err)
	}
	svg := buf.String()
	for _, want := range []string{"<svg", "strength", "random (0)", "Elo"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the SVG has no %q", want)
		}
	}
	if strings.Contains(svg, "http://") && strings.Contains(svg, "href=\"http") {
		t.Error("the SVG links an external resource")
	}
}

func TestFlatSeriesRange(t *testing.T) {
	p := Panel{Title: "flat", Series: []Series{{X: []float64{1, 2}, Y: []float64{6, 6}}}}
	_, _, lo, hi := p.ranges()
	if hi-lo < 1 {
		t.Errorf("a flat series at 6 gets the range [%g, %g]", lo, hi)
	}
	for _, tk := range (ticker{}).ticks(lo, hi) {
		if len(tk.label) > 4 {
			t.Errorf("tick label %q", tk.label)
		}
	}
	if _, _, lo, hi := p.WithYRange(0, 100).ranges(); lo != 0 || hi != 100 {
		t.Errorf("a fixed range: [%g, %g], want [0, 100]", lo, hi)
	}
}

// TestClip: lines and bands are cut at the frame of the plot.
func TestClip(t *testing.T) {
	r := rect{0, 0, 10, 10}
	parts := clipPolyline([]point{{-5, 5}, {5, 5}, {5, 15}, {8, 15}, {8, 5}}, r)
	if len(parts) != 2 || parts[0][0] != (point{0, 5}) || parts[0][len(parts[0])-1] != (point{5, 10}) || parts[1][0] != (point{8, 10}) {
		t.Errorf("clipped line %v", parts)
	}
	poly := clipPolygon([]point{{-5, -5}, {5, -5}, {5, 5}, {-5, 5}}, r)
	if a := math.Abs(area(poly)); math.Abs(a-25) > 1e-9 {
		t.Errorf("clipped square %v of area %g, want 25", poly, a)
	}
	d := dashes([]point{{0, 0}, {16, 0}}, []float64{5, 3})
	if len(d) != 2 || d[0][1] != (point{5, 0}) || d[1][0] != (point{8, 0}) || d[1][1] != (point{13, 0}) {
		t.Errorf("dashes %v", d)
	}
}
