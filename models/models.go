// Package models embeds the trained networks shipped with Kōnane Zero, so
// that the konane binary plays without any download, and holds the one
// table of which shipped network plays which board.
//
// The files are models/*.safetensors (see README.md beside them for how
// each was made): konane-multi.safetensors, a multi-board network
// (net.Config.MultiBoard), which today plays every board of the table,
// and konane-NxN.safetensors, a network of the N×N board alone, when one
// ships (none does today). The table (Shipped().Rows()) names, for
// every board a shipped network plays, its file and the results file
// that justifies the row; every other board is the exact solver's or
// the classical engine's (package agent). The tests check that every row
// decodes and plays its board, trained there, and that every embedded
// file has a row.
//
// # Usage
//
//	m, err := models.Shipped().For(rules.SquareBoard(8)) // the shipped 8x8 network
//	if err != nil { ... }                                // names the boards that have one
//	ev, err := net.NewEvaluator(m, net.DefaultEvalOptions())
package models

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
)

//go:embed *.safetensors
var files embed.FS

// Row is one board of a Set's table: the board (its start included), the
// file of the network that plays it, and the results file (a path from
// the repository's root) that justifies choosing that network there.
type Row struct {
	Board rules.Board
	File  string
	Why   string
}

// shippedRows is the table of the shipped networks: one row per board.
// A square board's single-board file, when one ships, is
// konane-NxN.safetensors; a board the multi-board file plays names
// konane-multi.safetensors, trained on that board (its start too), and a
// square in its rows has no single-board file beside it
// (TestShippedBoards). Boards not listed are the exact solver's (up to
// 5x5) or the classical engine's.
var shippedRows = []Row{
	{rules.SquareBoard(6), MultiFile, "docs/results/2026-12-07-multiboard.md#multi-7-at-its-1-2-and-3-cpu-hour-marks-the-squares-against-the-shipped-per-size-models"},
	{rules.SquareBoard(7), MultiFile, "docs/results/2026-12-07-multiboard.md#multi-7-at-its-1-2-and-3-cpu-hour-marks-the-squares-against-the-shipped-per-size-models"},
	{rules.SquareBoard(8), MultiFile, "docs/results/2026-12-07-multiboard.md#multi-7-at-its-1-2-and-3-cpu-hour-marks-the-squares-against-the-shipped-per-size-models"},
	{rules.Board{W: 7, H: 6, Start: rules.Gap}, MultiFile, "docs/results/2026-12-07-multiboard.md#generation-1443-on-the-gap-boards-7x6-and-9x8-against-pvs-at-1-s"},
	{rules.Board{W: 9, H: 8, Start: rules.Gap}, MultiFile, "docs/results/2026-12-07-multiboard.md#generation-1443-on-the-gap-boards-7x6-and-9x8-against-pvs-at-1-s"},
	{rules.Board{W: 11, H: 8, Start: rules.Gap}, MultiFile, "docs/results/2026-12-07-multiboard.md#11x8-and-15x12-so-far"},
	{rules.Board{W: 15, H: 12, Start: rules.Gap}, MultiFile, "docs/results/2026-12-07-multiboard.md#shipped-generation-918-on-the-gap-boards"},
}

// MultiFile is the name of the shipped multi-board network's file, when
// one ships.
const MultiFile = "konane-multi.safetensors"

// Set is networks and the table of the boards they play: the shipped
// ones (Shipped) or, in tests, another set (NewSet). It decodes each
// file once, on its first use, and gives every board of a multi-board
// file the same weights. It is safe for concurrent use.
type Set struct {
	files fs.FS
	rows  []Row

	mu      sync.Mutex
	decoded map[string]*net.Model // by file name
}

var shipped = NewSet(files, shippedRows)

// Shipped returns the networks embedded in the binary and their table.
func Shipped() *Set { return shipped }

// NewSet returns the set of the networks of files (model files, at the
// root) that play the boards of rows. It checks nothing yet: For fails
// on a row whose file is missing or plays another board.
func NewSet(files fs.FS, rows []Row) *Set {
	return &Set{files: files, rows: slices.Clone(rows), decoded: map[string]*net.Model{}}
}

// Rows returns the table, one row per board, in its order.
func (s *Set) Rows() []Row { return slices.Clone(s.rows) }

// Boards returns the boards a network of the set plays, in the table's
// order.
func (s *Set) Boards() []rules.Board {
	out := make([]rules.Board, len(s.rows))
	for i, r := range s.rows {
		out[i] = r.Board
	}
	return out
}

// Sizes returns the N of the N×N boards of at most rules.MaxSize files
// that a network of the set plays, in increasing order.
func (s *Set) Sizes() []int {
	var sizes []int
	for _, r := range s.rows {
		if r.Board.Square() && r.Board.Narrow() {
			sizes = append(sizes, r.Board.W)
		}
	}
	slices.Sort(sizes)
	return sizes
}

// Plays reports whether a network of the set plays b (b's start
// included).
func (s *Set) Plays(b rules.Board) bool { return slices.Contains(s.Boards(), b) }

// row returns b's row.
func (s *Set) row(b rules.Board) (Row, bool) {
	i := slices.IndexFunc(s.rows, func(r Row) bool { return r.Board == b })
	if i < 0 {
		return Row{}, false
	}
	return s.rows[i], true
}

// For returns the network that plays board b, given b (net.Model.ForBoard:
// a multi-board network's evaluators take b's positions). When none
// does, the error names the boards that have one.
func (s *Set) For(b rules.Board) (*net.Model, error) {
	r, ok := s.row(b)
	if !ok {
		return nil, fmt.Errorf("models: no shipped model for %s (shipped: %s)", b, s.BoardList())
	}
	m, err := s.decode(r.File)
	if err != nil {
		return nil, err
	}
	if !m.Config().MultiBoard() {
		if got := m.Config().Size; !b.Square() || got != b.W {
			return nil, fmt.Errorf("models: %s holds a %dx%d network, not a %s one", r.File, got, got, b)
		}
		return m, nil
	}
	mb, err := m.ForBoard(b)
	if err != nil {
		return nil, fmt.Errorf("models: %s: %w", r.File, err)
	}
	return mb, nil
}

// decode returns the model of the file name, decoded on the first call.
func (s *Set) decode(name string) (*net.Model, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.decoded[name]; m != nil {
		return m, nil
	}
	data, err := fs.ReadFile(s.files, name)
	if err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	m, err := net.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("models: %s: %w", name, err)
	}
	s.decoded[name] = m
	return m, nil
}

// BoardList is Boards written for people: "6x6, 7x7, 9x8" ("none" when
// empty).
func (s *Set) BoardList() string {
	if len(s.rows) == 0 {
		return "none"
	}
	return joinBoards(s.Boards())
}

// joinBoards writes boards for people: "6x6, 9x8".
func joinBoards(bs []rules.Board) string {
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = b.String()
	}
	return strings.Join(names, ", ")
}
