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
