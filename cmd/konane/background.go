package main

import (
	"context"
	"fmt"
	"io"
	"time"
)

// runInBackground runs run (an engine's or a factory's evaluator loop)
// until the returned stop is called; stop cancels it, waits for it and
// returns its error.
func runInBackground(ctx context.Context, run func(context.Context) error) (stop func() error) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	return func() error { cancel(); return <-done }
}

// timestamped returns a logf that writes each line to w after the time of
// day ("15:04:05 ...").
func timestamped(w io.Writer) func(format string, a ...any) {
	return func(format string, a ...any) {
		fmt.Fprintf(w, "%s %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, a...))
	}
}
