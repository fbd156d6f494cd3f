package models

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/konanezero/konane/net/nettest"
	"github.com/konanezero/konane/rules"
)

// TestShippedBoards checks the table of the shipped networks: every row
// decodes and plays its board, trained there (a multi-board file's
// metadata lists the board, its start included); a single-board file is
// konane-NxN.safetensors for its N×N board; no board has two rows, and
// no square the multi-board file plays also has a single-board file;
// every embedded file has a row; every row names a results file that
// exists.
func TestShippedBoards(t *testing.T) {
	for _, p := range setProblems(files, shippedRows) {
		t.Error(p)
	}
	s := Shipped()
	for _, r := range s.Rows() {
		why, _, _ := strings.Cut(r.Why, "#")
		if r.Why == "" {
			t.Errorf("%s: the row names no results file", r.Board)
		} else if _, err := os.Stat(filepath.Join("..", filepath.FromSlash(why))); err != nil {
			t.Errorf("%s: its results file: %v", r.Board, err)
		}
	}
}

// setProblems lists what is wrong with a set of files and rows, as
// TestShippedBoards checks it, one line each.
func setProblems(fsys fs.FS, rows []Row) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	s := NewSet(fsys, rows)
	seen := map[rules.Board]bool{}
	used := map[string]bool{}
	for _, r := range s.Rows() {
		b := r.Board
		if err := b.Validate(); err != nil {
			bad("row %v: %v", b, err)
			continue
		}
		if seen[b] {
			bad("%s has two rows", b)
		}
		seen[b] = true
		used[r.File] = true
		m, err := s.For(b)
		if err != nil {
			bad("%s: %v", b, err)
			continue
		}
		if m.Shape() != rules.ShapeCode(b.W, b.H) {
			bad("%s: %s plays shape %d", b, r.File, m.Shape())
		}
		if !m.TrainedOn(b) {
			bad("%s: %s was not trained there: %s", b, r.File, m.BoardNote(b))
		}
		if !m.Config().MultiBoard() {
			if r.File != fileName(b.W) {
				bad("%s: the single-board file %s should be named %s", b, r.File, fileName(b.W))
			}
		} else if _, err := fs.Stat(fsys, fileName(b.W)); err == nil && b.Square() {
			bad("%s: both %s and %s play it: drop one", b, r.File, fileName(b.W))
		}
	}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		bad("%v", err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".safetensors") && !used[e.Name()] {
			bad("%s is embedded but no row names it", e.Name())
		}
	}
	return out
}

// fileName is the name of the shipped single-board model of N×N.
func fileName(n int) string { return fmt.Sprintf("konane-%dx%d.safetensors", n, n) }

// TestShippedSizes: the product promises 8x8 (the standard board), 7x7
// and 6x6 (4x4 and 5x5 are the exact solver's, package agent).
func TestShippedSizes(t *testing.T) {
	for _, n := range []int{6, 7, 8} {
		if !slices.Contains(Shipped().Sizes(), n) {
			t.Errorf("no %dx%d model shipped (have %v)", n, n, Shipped().Sizes())
		}
	}
}

func TestForMissingBoard(t *testing.T) {
	for _, b := range []rules.Board{rules.SquareBoard(5), {W: 9, H: 8, Start: rules.Removal}} {
		_, err := Shipped().For(b)
		if err == nil {
			t.Fatalf("For(%s): no error", b)
		}
		if !strings.Contains(err.Error(), b.String()) || !strings.Contains(err.Error(), Shipped().BoardList()) {
			t.Errorf("error %q should name the board asked and the boards shipped (%s)", err, Shipped().BoardList())
		}
	}
}

// TestSetMultiBoard: a set whose multi-board file plays two boards and a
// single-board file a third gives each board its network, the two of the
// multi-board file sharing one decoding; the table's checks catch a row
// naming the multi-board file for a board it was not trained on, a
// square that two files play, a file no row names, a missing file, a file of another board.
func TestSetMultiBoard(t *testing.T) {
	gap := rules.Board{W: 9, H: 8, Start: rules.Gap}
	multi := multiBoardFile(t, gap, rules.SquareBoard(6), rules.SquareBoard(7), rules.SquareBoard(8))
	single := nettest.ModelBytes(t, nettest.TinyModel(t, 7, 1))
	fsys := fstest.MapFS{MultiFile: {Data: multi}, fileName(7): {Data: single}}
	rows := []Row{
		{rules.SquareBoard(6), MultiFile, "x.md"},
		{rules.SquareBoard(7), fileName(7), "x.md"},
		{gap, MultiFile, "x.md"},
	}
	if p := setProblems(fsys, rows); p != nil {
		t.Errorf("a good set: %q", p)
	}
	s := NewSet(fsys, rows)
	if got, want := s.Sizes(), []int{6, 7}; !slices.Equal(got, want) {
		t.Errorf("Sizes() = %v, want %v", got, want)
	}
	if got, want := s.BoardList(), "6x6, 7x7, 9x8"; got != want {
		t.Errorf("BoardList() = %q, want %q", got, want)
	}
	if !s.Plays(gap) || s.Plays(rules.Board{W: 9, H: 8, Start: rules.Removal}) || s.Plays(rules.SquareBoard(8)) {
		t.Error("Plays: want 9x8 (gap) only of the three")
	}
	m9, err := s.For(gap)
	if err != nil {
		t.Fatal(err)
	}
	m6, err := s.For(rules.SquareBoard(6))
	if err != nil {
		t.Fatal(err)
	}
	if m9.Shape() != rules.ShapeCode(9, 8) || m6.Shape() != 6 {
		t.Errorf("shapes %d and %d", m9.Shape(), m6.Shape())
	}
	if len(s.decoded) != 1 {
		t.Errorf("%d files decoded for the two boards of one file", len(s.decoded))
	}
	if _, err := s.For(rules.SquareBoard(8)); err == nil {
		t.Error("For(8x8): the multi-board file was trained there but has no row: want an error")
	}

	// What the table's checks catch, each alone.
	for name, tc := range map[string]struct {
		rows []Row
		want string
	}{
		"untrained":  {[]Row{{rules.Board{W: 7, H: 6, Start: rules.Gap}, MultiFile, "x.md"}}, "was not trained"},
		"two rows":   {[]Row{{rules.SquareBoard(6), MultiFile, "x.md"}, {rules.SquareBoard(6), MultiFile, "x.md"}}, "two rows"},
		"two files":  {[]Row{{rules.SquareBoard(7), MultiFile, "x.md"}, {gap, MultiFile, "x.md"}}, "both " + MultiFile + " and " + fileName(7) + " play it"},
		"unused":     {[]Row{{rules.SquareBoard(7), fileName(7), "x.md"}}, "no row names"},
		"missing":    {[]Row{{rules.SquareBoard(8), fileName(8), "x.md"}}, "file does not exist"},
		"wrong size": {[]Row{{rules.SquareBoard(6), fileName(7), "x.md"}}, "holds a 7x7 network"},
	} {
		if p := strings.Join(setProblems(fsys, tc.rows), "; "); !strings.Contains(p, tc.want) {
			t.Errorf("%s: the checks said %q, want %q among them", name, p, tc.want)
		}
	}
}

// multiBoardFile is the bytes of a tiny multi-board model file trained on
// the boards given.
func multiBoardFile(t *testing.T, trained ...rules.Board) []byte {
	t.Helper()
	m := nettest.TinyMultiBoardModel(t, 1)
	meta := m.Meta()
	meta.Boards = trained
	return nettest.ModelBytes(t, m.WithMeta(meta))
}
