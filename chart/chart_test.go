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
	tk := intTicks{integer: true, second: func(x float64) string {
		if x == 4 {
			return "2 h"
		}
		return ""
	}}
	ticks := tk.Ticks(1, 7)
	var labels []string
	for _, x := range ticks {
		if x.Value != math.Round(x.Value) {
			t.Errorf("tick at %g is not a whole number", x.Value)
		}
		labels = append(labels, x.Label)
	}
	if got := strings.Join(labels, "|"); !strings.Contains(got, "4\n2 h") || strings.Contains(got, ".") {
		t.Errorf("labels %q: want whole numbers and \"4\\n2 h\"", got)
	}
	for _, x := range (intTicks{}).Ticks(0, 0.5) {
		if x.Label != "" && len(x.Label) > 4 {
			t.Errorf("label %q of a step of 0.1 has too many decimals", x.Label)
		}
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
	pl, _, err := p.build()
	if err != nil {
		t.Fatal(err)
	}
	if pl.Y.Max-pl.Y.Min < 1 {
		t.Errorf("a flat series at 6 gets the range [%g, %g]", pl.Y.Min, pl.Y.Max)
	}
	for _, tk := range pl.Y.Tick.Marker.Ticks(pl.Y.Min, pl.Y.Max) {
		if len(tk.Label) > 4 {
			t.Errorf("tick label %q", tk.Label)
		}
	}
}
