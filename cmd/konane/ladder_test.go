package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
