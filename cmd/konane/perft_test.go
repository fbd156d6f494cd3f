package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestPerftOutput(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"perft", "--size", "8", "--depth", "3"}, strings.NewReader(""), &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out.String(), "\ntotal: 28 172 892\n") {
		t.Errorf("output ends:\n%s", out.String())
	}
}

// TestPerftInterrupt: Ctrl-C stops a walk that would take hours inside
// its first opening (before, the context was checked only between
// openings). rules.BenchmarkPerftCancel measures the delay.
func TestPerftInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		var out bytes.Buffer
		done <- run(ctx, []string{"perft", "--size", "8", "--depth", "14"}, strings.NewReader(""), &out, &out)
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("perft returned %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("perft --depth 14 did not stop within 10 s of Ctrl-C")
	}
}

// TestPerftBoards: --board on a rectangle with the removals (a line per
// opening, counted after them), on AbstractPlay's gap boards (the total
// from the start, as AbstractPlay's own generator counts: see
// rules/testdata/abstractplay-perft.txt) and on a wide board.
func TestPerftBoards(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--board", "size-7", "--depth", "4"}, "total: 3 20 93 656\n"},
		{[]string{"--board", "size-15", "--depth", "3"}, "total: 3 20 118\n"},
		{[]string{"--board", "8x8", "--depth", "3"}, "\ntotal: 28 172 892\n"},
		{[]string{"--board", "default", "--depth", "2"}, "a1 b1: 1 3\n"},
		{[]string{"--board", "9x8/removal", "--depth", "1"}, "a1 a2: "},
	} {
		var out bytes.Buffer
		if err := run(context.Background(), append([]string{"perft"}, tc.args...), strings.NewReader(""), &out, &out); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("%v: output\n%s\nwant it to contain %q", tc.args, out.String(), tc.want)
		}
	}
	// 6x6's totals after the removals are AbstractPlay's counts two plies on.
	var out bytes.Buffer
	if err := run(context.Background(), []string{"perft", "--board", "default", "--depth", "3"}, strings.NewReader(""), &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out.String(), "\ntotal: 28 156 668\n") {
		t.Errorf("6x6 output ends:\n%s", out.String())
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--board", "17x6", "--depth", "2"}, `perft: --board 17x6: 17x6 is outside the boards 4x4..16x16`},
		{[]string{"--board", "8/gap", "--depth", "2"}, `perft: --board 8/gap: the gap start needs exactly one of width and height odd`},
		{[]string{"--board", "7x6", "--size", "6", "--depth", "2"}, "perft: --board and --size are the same flag: give one"},
	} {
		var out bytes.Buffer
		err := run(context.Background(), append([]string{"perft"}, tc.args...), strings.NewReader(""), &out, &out)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%v: error %v; want %q", tc.args, err, tc.want)
		}
	}
}
