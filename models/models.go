// Package models embeds the trained networks shipped with Kōnane Zero, one
// per board size, so that the konane binary plays without any download.
//
// The files are models/konane-NxN.safetensors (see README.md beside them
// for how each was made); the N of the name is the board size, and the
// tests check that every file decodes and plays that size.
//
// # Usage
//
//	m, err := models.Default(8) // the shipped 8x8 network
//	if err != nil { ... }       // names the sizes that have one
//	ev, err := net.NewEvaluator(m, net.DefaultEvalOptions())
package models

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
)

//go:embed *.safetensors
var files embed.FS

// fileName is the name of the shipped model of a board size.
func fileName(size int) string { return fmt.Sprintf("konane-%dx%d.safetensors", size, size) }

// Sizes returns the board sizes that have a shipped model, in increasing
// order.
func Sizes() []int {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		return nil // the embedded root always reads
	}
	var sizes []int
	for _, e := range entries {
		var n, m int
		if _, err := fmt.Sscanf(e.Name(), "konane-%dx%d.safetensors", &n, &m); err == nil && n == m && e.Name() == fileName(n) {
			sizes = append(sizes, n)
		}
	}
	slices.Sort(sizes)
	return sizes
}

// Default decodes the shipped model of size×size boards. When there is
// none, the error names the sizes that have one.
func Default(size int) (*net.Model, error) {
	data, err := files.ReadFile(fileName(size))
	if err != nil {
		return nil, fmt.Errorf("models: no shipped model for %dx%d (shipped: %s)", size, size, SizeList())
	}
	m, err := net.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("models: %s: %w", fileName(size), err)
	}
	if got := m.Config().Size; got != size {
		return nil, fmt.Errorf("models: %s holds a %dx%d network", fileName(size), got, got)
	}
	return m, nil
}

// SizeList is Sizes written for people: "6x6, 8x8" ("none" when empty).
func SizeList() string { return rules.SizeList(Sizes()) }
