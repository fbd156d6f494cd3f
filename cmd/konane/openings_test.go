package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

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
