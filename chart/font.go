package chart

import (
	"fmt"
	"sync"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
)

// The text of figures is in Go Regular (golang.org/x/image/font/gofont),
// a sans-serif that reads well at small sizes: drawn into the PNGs, and
// named first in the SVGs' list of fonts, whose widths are measured
// with it.

var fonts struct {
	sync.Mutex // faces are not safe for concurrent use
	faces      map[faceKey]font.Face
}

var goRegular = sync.OnceValues(func() (*sfnt.Font, error) { return opentype.Parse(goregular.TTF) })

type faceKey struct {
	size    float64
	hinting bool
}

// face returns the face of Go Regular at size (in pixels), with full
// hinting if asked (for an image). The caller holds fonts' lock.
func face(size float64, hinting bool) (font.Face, error) {
	f, err := goRegular()
	if err != nil {
		return nil, fmt.Errorf("chart: the Go Regular font: %w", err)
	}
	k := faceKey{size, hinting}
	if fc, ok := fonts.faces[k]; ok {
		return fc, nil
	}
	opts := &opentype.FaceOptions{Size: size, DPI: 72}
	if hinting {
		opts.Hinting = font.HintingFull
	}
	fc, err := opentype.NewFace(f, opts)
	if err != nil {
		return nil, fmt.Errorf("chart: the Go Regular font at %g: %w", size, err)
	}
	if fonts.faces == nil {
		fonts.faces = map[faceKey]font.Face{}
	}
	fonts.faces[k] = fc
	return fc, nil
}

// textWidth is the width of s written at size points (estimated if the
// font cannot be read).
func textWidth(s string, size float64) float64 {
	fonts.Lock()
	defer fonts.Unlock()
	fc, err := face(size, false)
	if err != nil {
		return 0.55 * size * float64(utf8.RuneCountInString(s))
	}
	return float64(font.MeasureString(fc, s)) / 64
}
