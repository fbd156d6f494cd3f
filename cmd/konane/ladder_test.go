package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/selfplay/selfplaytest"
)

// TestTrainLadderEvery: "konane train --ladder-every 1" rates every
// generation of the run on the Elo ladder while it trains, the last one
// included (it arrives while the ladder may still rate an earlier one).
func TestTrainLadderEvery(t *testing.T) {
	if testing.Short() {
		t.Skip("trains and rates three generations")
	}
	dir := filepath.Join(t.TempDir(), "run")
	var out bytes.Buffer
	err := run(context.Background(), []string{"train", "--run", dir, "--size", "4", "--generations", "3",
		"--games-per-gen", "4", "--sims", "8", "--fast-sims", "4", "--filters", "4", "--blocks", "1", "--batch", "8",
		"--ladder-every", "1"}, nil, &out, &out)
	if err != nil {
		t.Fatalf("train: %v\n%s", err, out.String())
	}
	f, err := os.Open(filepath.Join(dir, "ladder", "ratings.csv"))
	if err != nil {
		t.Fatalf("no ratings after training: %v\n%s", err, out.String())
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var players []string
	for _, r := range rows[1:] {
		players = append(players, r[0])
	}
	for _, gen := range []string{"gen-000001", "gen-000002", "gen-000003"} {
		found := false
		for _, p := range players {
			found = found || strings.Contains(p, gen)
		}
		if !found {
			t.Errorf("%s is not on the ladder; rated: %v\n%s", gen, players, out.String())
		}
	}
	if !strings.Contains(out.String(), "ladder: ") {
		t.Errorf("train printed nothing of the ladder:\n%s", out.String())
	}
}

// TestLadderKeepsTimeLimit: a session's time limit includes the ladder
// that rates alongside it (train --time 4m --ladder-every 2 waited 35
// minutes for one, issue 45): an update still running at the limit is
// stopped, and wait says so; without a limit wait waits for it.
func TestLadderKeepsTimeLimit(t *testing.T) {
	// An update that rates until it is stopped.
	forever := func(ctx context.Context) { <-ctx.Done() }
	var log bytes.Buffer
	var mu sync.Mutex
	logf := func(format string, a ...any) { mu.Lock(); fmt.Fprintf(&log, format+"\n", a...); mu.Unlock() }
	rate, wait := alongside(context.Background(), 2, 50*time.Millisecond, forever, logf)
	rate(1) // not a 2nd generation: nothing starts
	rate(2)
	start := time.Now()
	wait()
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("wait took %v past a 50ms limit", took)
	}
	if !strings.Contains(log.String(), "time limit 50ms reached: the ladder stopped with the run") {
		t.Errorf("wait did not say the ladder stopped at the limit:\n%s", log.String())
	}

	// Without a limit, wait waits for the update to finish.
	log.Reset()
	release := make(chan struct{})
	done := false
	update := func(ctx context.Context) { <-release; done = true }
	rate, wait = alongside(context.Background(), 1, 0, update, logf)
	rate(1)
	time.AfterFunc(20*time.Millisecond, func() { close(release) })
	wait()
	if !done || strings.Contains(log.String(), "time limit") {
		t.Errorf("without a limit: update done %v, log:\n%s", done, log.String())
	}
}

// TestLadderRectangle: "konane ladder --board 7x6" (or AbstractPlay's
// size-7) rates a multi-board run's generations on 7x6, in
// DIR/ladder/7x6, with games that start from the gap.
func TestLadderRectangle(t *testing.T) {
	dir := selfplaytest.MultiBoardRun(t, "6x6,7x6", 1, 2)
	var out bytes.Buffer
	err := run(context.Background(), []string{"ladder", "--run", dir, "--board", "size-7", "--games", "2", "--sims", "4", "--parallel", "2"}, nil, &out, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	ladderDir := filepath.Join(dir, "ladder", "7x6")
	if !strings.Contains(out.String(), "wrote "+filepath.Join(ladderDir, "ratings.csv")) {
		t.Errorf("output:\n%s", out.String())
	}
	games, _ := filepath.Glob(filepath.Join(ladderDir, "games", "*", "*.txt"))
	if len(games) == 0 {
		t.Fatalf("no games in %s:\n%s", ladderDir, out.String())
	}
	for _, f := range games {
		rec, err := rules.ReadRecordFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Board() != (rules.Board{W: 7, H: 6, Start: rules.Gap}) || rec.Len() == 0 || rec.Wide == nil && rec.Moves[0].IsRemoval() {
			t.Errorf("%s: board %s, %d moves", f, rec.Board(), rec.Len())
		}
	}
	err = run(context.Background(), []string{"ladder", "--run", dir, "--board", "9x8"}, nil, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "trains the boards 6x6,7x6: give --board, one of them") {
		t.Errorf("9x8: %v", err)
	}
}
