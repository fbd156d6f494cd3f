package solver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/internal/golden"
	"github.com/konanezero/konane/rules"
)

// TestKnownText: the table that ships with the program reads, and holds
// every opening of each of KnownSizes, with the game's value as the
// openings give it; 6x6 is White's (TestSolveStart6x6).
func TestKnownText(t *testing.T) {
	m, err := parseKnown(knownText)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range KnownSizes {
		s, ok := KnownStart(size)
		if !ok || s.Size != size || len(s.Openings) != len(rules.Openings(size)) || len(m[size].Openings) != len(s.Openings) {
			t.Errorf("%dx%d: known %v, %d openings, want %d", size, size, ok, len(s.Openings), len(rules.Openings(size)))
		}
	}
	if s, _ := KnownStart(6); s.BlackWins {
		t.Error("6x6: Black wins by the table, want White (TestSolveStart6x6)")
	}
	if _, ok := KnownStart(7); ok {
		t.Error("7x7 is known, but is not among KnownSizes")
	}
}

// TestParseKnownErrors: a table with a line amiss, an opening missing or
// one too many says which.
func TestParseKnownErrors(t *testing.T) {
	full := FormatKnown([]Start{mustKnown(t, 4), mustKnown(t, 5), mustKnown(t, 6)})
	lines := strings.Split(strings.TrimSpace(full), "\n")
	last := len(lines) - 1
	for _, tc := range []struct {
		name, text, want string
	}{
		{"fields", full + "6x6 a1 b1\n", "want board"},
		{"board", full + "6x5 a1 b1 white\n", "want NxN"},
		{"winner", strings.Replace(full, "6x6 a1 b1 white", "6x6 a1 b1 nobody", 1), "want black or white"},
		{"twice", full + lines[last] + "\n", "given twice"},
		{"missing", strings.Join(lines[:last], "\n"), "has no opening"},
		{"extra", full + "6x6 a1 c3 black\n", "is no opening"},
		{"size", full + "7x7 a1 b1 white\n", "not among KnownSizes"},
	} {
		if _, err := parseKnown(tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

func mustKnown(t *testing.T, size int) Start {
	t.Helper()
	s, ok := KnownStart(size)
	if !ok {
		t.Fatalf("%dx%d not known", size, size)
	}
	return s
}

// TestKnownWinner: the winner before the removals, after Black's and
// after both, by the 6x6 table: White wins the game; after d4 Black
// wins only if every White reply loses; after an opening, its value.
func TestKnownWinner(t *testing.T) {
	s := mustKnown(t, 6)
	for _, o := range s.Openings {
		want := "white"
		if o.BlackWins {
			want = "black"
		}
		if got, ok := KnownWinner(6, []string{o.Black.String(), o.White.String()}); !ok || got != want {
			t.Errorf("6x6 %v %v: %q %v, want %q", o.Black, o.White, got, ok, want)
		}
	}
	if got, ok := KnownWinner(6, nil); !ok || got != "white" {
		t.Errorf("6x6 start: %q %v, want white", got, ok)
	}
	// d4 loses to d3 (TestSolveStart6x6): White wins after d4.
	if got, ok := KnownWinner(6, []string{"d4"}); !ok || got != "white" {
		t.Errorf("6x6 after d4: %q %v, want white", got, ok)
	}
	for _, moves := range [][]string{{"b2"}, {"a1", "c3"}, {"a1", "b1", "c1-a1"}} {
		if got, ok := KnownWinner(6, moves); ok {
			t.Errorf("6x6 %v: %q, want not known", moves, got)
		}
	}
	// 5x5: both White replies to a1 lose (known.txt), so Black wins after
	// a1 alone, and from the start.
	for _, moves := range [][]string{nil, {"a1"}, {"a1", "b1"}} {
		if got, ok := KnownWinner(5, moves); !ok || got != "black" {
			t.Errorf("5x5 %v: %q %v, want black", moves, got, ok)
		}
	}
	if _, ok := KnownWinner(8, nil); ok {
		t.Error("8x8 known")
	}
}

// TestKnownStarts checks known.txt against the solver: SolveStart of each
// of KnownSizes, or with -update rewrites it. With -short it checks the
// boards up to 5x5 only (6x6 takes seconds).
func TestKnownStarts(t *testing.T) {
	var starts []Start
	for _, size := range KnownSizes {
		if testing.Short() && !*golden.Update && size > 5 {
			t.Logf("%dx%d not solved with -short", size, size)
			continue
		}
		began := time.Now()
		s, err := New().SolveStart(context.Background(), size, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%dx%d solved in %v", size, size, time.Since(began))
		starts = append(starts, s)
		known, ok := KnownStart(size)
		if !ok {
			t.Fatalf("%dx%d is one of KnownSizes but not in known.txt", size, size)
		}
		if got, want := FormatKnown([]Start{known}), FormatKnown([]Start{s}); got != want {
			t.Errorf("known.txt's %dx%d is not what the solver says: run go test ./solver -run TestKnownStarts -update and explain the change\n got:\n%s\nwant:\n%s", size, size, got, want)
		}
	}
	if testing.Short() && !*golden.Update {
		return
	}
	text := FormatKnown(starts)
	if *golden.Update {
		if err := atomicfile.WriteFile("known.txt", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if text != knownText {
		t.Errorf("known.txt is not what the solver says: run go test ./solver -run TestKnownStarts -update and explain the change\n got:\n%s\nwant:\n%s", knownText, text)
	}
}
