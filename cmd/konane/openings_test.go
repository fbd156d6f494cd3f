package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/analysis"
	"github.com/konanezero/konane/rules"
)

// TestOpeningsCommand: the table has a row per pair of removals and the
// agent's choice; --json the same rows.
func TestOpeningsCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"openings", "--size", "6", "--sims", "4", "--exact=false", "--quiet"}, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	text := out.String()
	if !strings.HasPrefix(text, "black  white  agent: black wins  exact") || !strings.Contains(text, "\nd4     e4     ") ||
		!strings.Contains(text, "the agent's choice for Black: remove ") {
		t.Errorf("table:\n%s", text)
	}
	if rows := strings.Count(text, "\n") - 2; rows != len(rules.Openings(6)) {
		t.Errorf("%d rows, want %d:\n%s", rows, len(rules.Openings(6)), text)
	}
	out.Reset()
	if err := run(context.Background(), []string{"openings", "--size", "6", "--sims", "4", "--exact=false", "--json", "--quiet"}, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatal(err)
	}
	var rows []analysis.OpeningsJSON
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil || len(rows) != 12 || rows[0].Black != "a1" || rows[0].Exact != "" {
		t.Errorf("--json: %v %+v", err, rows)
	}
	for _, args := range [][]string{{"openings", "extra"}, {"openings", "--size", "9"}, {"openings", "--sims", "-1"}} {
		if err := run(context.Background(), args, strings.NewReader(""), &out, &errb); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

// TestOpeningsRectangle: with a multi-board model file, openings on 7x6
// (the gap start) rates Black's first jumps, and on 7x6/removal every
// pair of removals; without a model a rectangle no shipped network plays
// (8x7) is one line.
func TestOpeningsRectangle(t *testing.T) {
	path := agenttest.MultiBoardModelFile(t, rules.SquareBoard(6), rules.Board{W: 7, H: 6, Start: rules.Gap})
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"openings", "--board", "size-7", "--model", path, "--sims", "4", "--json", "--quiet"}, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	var rows []analysis.OpeningsJSON
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil {
		t.Fatal(err)
	}
	start, _ := rules.Board{W: 7, H: 6, Start: rules.Gap}.Position()
	if len(rows) != start.CountMoves() || len(rows) == 0 {
		t.Fatalf("%d rows on 7x6, want Black's %d first jumps:\n%s", len(rows), start.CountMoves(), out.String())
	}
	for _, r := range rows {
		if _, err := rules.ParseMove(start, r.Black); err != nil || r.White != "" || r.Exact != "" {
			t.Errorf("row %+v: %v", r, err)
		}
	}
	out.Reset()
	if err := run(context.Background(), []string{"openings", "--board", "7x6/removal", "--model", path, "--sims", "4", "--quiet"}, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	removal, _ := rules.Board{W: 7, H: 6}.Position()
	if n := strings.Count(out.String(), "\n") - 2; n != len(rules.OpeningsFrom(removal)) || !strings.Contains(out.String(), "the agent's choice for Black: remove ") {
		t.Errorf("7x6/removal: %d rows, want %d:\n%s", n, len(rules.OpeningsFrom(removal)), out.String())
	}
	if !strings.Contains(errb.String(), "note: the network was not trained on 7x6/removal") {
		t.Errorf("no note on stderr: %q", errb.String())
	}
	err := run(context.Background(), []string{"openings", "--board", "8x7"}, strings.NewReader(""), &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "openings: 8x7: no model is shipped for this board") {
		t.Errorf("8x7 without a model: %v", err)
	}
	err = run(context.Background(), []string{"openings", "--board", "7x6/removal"}, strings.NewReader(""), &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "openings: 7x6/removal: no model is shipped for this board") || !strings.Contains(err.Error(), "7x6 (gap start)") {
		t.Errorf("7x6/removal without a model: %v", err)
	}
}

// TestOpeningsWideBoard: with a multi-board model file trained on 9x8,
// openings on 9x8 (the gap start) rates Black's first jumps by the
// network, the table and --json alike; a board above 8x8 it was not
// trained on is one line naming the boards it was.
func TestOpeningsWideBoard(t *testing.T) {
	gap := rules.Board{W: 9, H: 8, Start: rules.Gap}
	path := agenttest.MultiBoardModelFile(t, rules.SquareBoard(6), gap)
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"openings", "--board", "size-9", "--model", path, "--sims", "4", "--json", "--quiet"}, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	var rows []analysis.OpeningsJSON
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil {
		t.Fatal(err)
	}
	start, _ := gap.WidePosition()
	if len(rows) != start.CountMoves() || len(rows) == 0 {
		t.Fatalf("%d rows on 9x8, want Black's %d first jumps:\n%s", len(rows), start.CountMoves(), out.String())
	}
	for _, r := range rows {
		if _, err := rules.ParseWideMove(start, r.Black); err != nil || r.White != "" || r.Exact != "" || len(r.PV) == 0 {
			t.Errorf("row %+v: %v", r, err)
		}
	}
	out.Reset()
	if err := run(context.Background(), []string{"openings", "--board", "9x8", "--model", path, "--sims", "4", "--quiet"}, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if n := strings.Count(out.String(), "\n") - 2; n != len(rows) || !strings.Contains(out.String(), "the agent's choice for Black: ") {
		t.Errorf("9x8: %d rows, want %d:\n%s", n, len(rows), out.String())
	}
	err := run(context.Background(), []string{"openings", "--board", "11x8", "--model", path, "--sims", "4", "--quiet"}, strings.NewReader(""), &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "was not trained on 11x8 (it was on 6x6,9x8)") || strings.Count(err.Error(), "\n") > 0 {
		t.Errorf("11x8, not trained there: %v", err)
	}
}
