package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/chart"
	"github.com/konanezero/konane/internal/golden"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// randomGame is a seeded random game of size×size, as a record.
func randomGame(size int, seed uint64) *rules.Record {
	_, ms := rules.Playout(rand.New(rand.NewPCG(seed, 0)), rules.NewPosition(size), -1)
	rec := rules.NewRecord(size)
	for _, m := range ms {
		rec.AddMove(m, "")
	}
	return rec
}

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		loss float64
		want Class
	}{{0, Good}, {0.049, Good}, {0.05, Inaccuracy}, {0.0999, Inaccuracy}, {0.1, Mistake}, {0.19, Mistake}, {0.2, Blunder}, {1, Blunder}} {
		if got := Classify(c.loss); got != c.want {
			t.Errorf("Classify(%v) = %v, want %v", c.loss, got, c.want)
		}
	}
}

// TestThrownWinsAreMistakes analyses random 6x6 games (random moves throw
// wins away often) with the shipped model and checks that every move the
// solver, run here independently, shows to throw away a forced win is
// labelled at least a mistake, and that the rows are consistent.
func TestThrownWinsAreMistakes(t *testing.T) {
	e, err := agenttest.RunEngines(t).Get(6)
	if err != nil {
		t.Fatal(err)
	}
	s := solver.New(solver.WithTableEntries(1 << 18))
	ctx := context.Background()
	thrown := 0
	for seed := uint64(1); seed <= 2; seed++ {
		rec := randomGame(6, seed)
		rep, err := Game(ctx, e, rec, Config{Limits: player.Limits{Sims: 16}, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Rows) != len(rec.Moves) || len(rep.Positions) != len(rec.Moves)+1 {
			t.Fatalf("seed %d: %d rows and %d positions for %d moves", seed, len(rep.Rows), len(rep.Positions), len(rec.Moves))
		}
		ps, _ := rec.Replay()
		for i, r := range rep.Rows {
			if r.Move != rec.Moves[i] || r.Player != ps[i].Turn || r.Ply != i+1 {
				t.Fatalf("seed %d row %d: %+v does not match the game", seed, i, r)
			}
			if r.Before < 0 || r.Before > 1 || r.After < 0 || r.After > 1 || r.Loss < 0 {
				t.Errorf("seed %d ply %d: probabilities out of range: %+v", seed, r.Ply, r)
			}
			if !solver.Solvable(ps[i], solver.DefaultMaxStones) {
				continue
			}
			before, err := s.Solve(ctx, ps[i])
			if err != nil {
				t.Fatal(err)
			}
			after, err := s.Solve(ctx, ps[i+1])
			if err != nil {
				t.Fatal(err)
			}
			if before && after {
				thrown++
				if r.Class < Mistake || r.Verdict != ThrowsWin {
					t.Errorf("seed %d ply %d: %s throws away a forced win but is labelled %q, %q", seed, r.Ply, r.Move, r.Class, r.Verdict)
				}
			} else if r.Verdict == ThrowsWin {
				t.Errorf("seed %d ply %d: %s labelled %q, but the solver says it does not", seed, r.Ply, r.Move, r.Verdict)
			}
		}
		// The last position is lost for the side to move.
		if last := rep.Positions[len(rep.Positions)-1]; last.WinProb != 0 || last.Exact != Lost {
			t.Errorf("seed %d: the final position: %+v, want lost", seed, last)
		}
	}
	if thrown == 0 {
		t.Fatal("no move threw away a win: the test checked nothing")
	}
	t.Logf("%d moves throwing away a forced win, all labelled", thrown)
}

// TestOutputs checks that the annotated record reads back with the
// analysis as comments, and that the JSON, table and chart are written.
func TestOutputs(t *testing.T) {
	e, err := agenttest.RunEngines(t).Get(6)
	if err != nil {
		t.Fatal(err)
	}
	rec := randomGame(6, 7)
	rec.SetTag("Event", "test")
	rec.Comments = make([]string, len(rec.Moves))
	rec.Comments[0] = "opening"
	var calls, last, lastTotal int
	rep, err := Game(context.Background(), e, rec, Config{Limits: player.Limits{Sims: 8}, Parallel: 3,
		Progress: func(done, total int) { calls++; last, lastTotal = done, total }})
	if err != nil {
		t.Fatal(err)
	}
	// Progress counts positions, as many as the report has.
	if want := len(rep.Positions); calls != want || last != want || lastTotal != want {
		t.Errorf("progress called %d times up to %d/%d, want %d", calls, last, lastTotal, want)
	}
	// Every row has its lines: the agent's from its choice, and the one
	// it expects after the move played, from that move.
	for i, r := range rep.Rows {
		next := rep.Positions[i+1].Search.PV
		if len(r.Search.PV) == 0 || r.Search.PV[0] != r.Search.Best || len(r.Line) != 1+len(next) || r.Line[0] != r.Move || !slices.Equal(r.Line[1:], next) {
			t.Errorf("move %d %v: best %v, pv %v, line %v (the next position's pv %v)", r.Ply, r.Move, r.Search.Best, r.Search.PV, r.Line, next)
		}
	}
	ann := rep.Annotate(rec, "test")
	for _, name := range []string{"game.txt", "game.json"} {
		data, err := ann.MarshalFor(name)
		if err != nil {
			t.Fatal(err)
		}
		back, err := rules.ParseRecord(data)
		if err != nil {
			t.Fatalf("%s: the annotated record does not read back: %v\n%s", name, err, data)
		}
		if len(back.Moves) != len(rec.Moves) || back.Tag("Annotator") != "test" || back.Tag("Event") != "test" {
			t.Fatalf("%s: read back %d moves, tags %v", name, len(back.Moves), back.Tags)
		}
		for i, r := range rep.Rows {
			if !strings.Contains(back.Comments[i], r.Comment()) {
				t.Errorf("%s: move %d comment %q, want it to hold %q", name, i+1, back.Comments[i], r.Comment())
			}
		}
		if !strings.HasPrefix(back.Comments[0], "opening | ") {
			t.Errorf("%s: the first comment lost the comment there was: %q", name, back.Comments[0])
		}
	}
	j, err := json.Marshal(rep.JSON())
	if err != nil {
		t.Fatal(err)
	}
	var back JSONReport
	if err := json.Unmarshal(j, &back); err != nil || len(back.Rows) != len(rec.Moves) || back.Rows[0].Move != rec.Moves[0].String() {
		t.Errorf("JSON %s does not read back (%v)", j, err)
	}
	var table bytes.Buffer
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(table.String(), "\n"); lines != len(rec.Moves)+5 || !strings.HasPrefix(table.String(), "6x6 game, removal start, reviewed by the agent\n") {
		t.Errorf("table of %d lines, want %d, the first naming the board:\n%s", lines, len(rec.Moves)+5, table.String())
	}
	// A random game is played to its end: the side without a move lost.
	end := rep.Positions[len(rep.Positions)-1].Side
	if want := fmt.Sprintf("result: %s wins (%s has no move)\n", end.Other(), end); !strings.HasSuffix(table.String(), want) {
		t.Errorf("the table does not end with %q:\n%s", want, table.String())
	}
	if r := back.Result; !r.Over || r.Winner != end.Other().String() || r.Resigned {
		t.Errorf("JSON result %+v, want %s to win", r, end.Other())
	}
	var png bytes.Buffer
	if err := chart.WritePNG(&png, []chart.Panel{rep.Panel()}, 1); err != nil || png.Len() == 0 {
		t.Errorf("chart: %v (%d bytes)", err, png.Len())
	}
}

// TestOutcome: a game ends when the side to move has none (whatever the
// Result tag says), or by the tag before that (a resignation); without
// either it is unfinished.
func TestOutcome(t *testing.T) {
	rec := randomGame(6, 5)
	ps, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	end := ps[len(ps)-1].Turn
	cut := func(n int, result string) *rules.Game {
		r := rules.NewRecord(6)
		for _, m := range rec.Moves[:n] {
			r.AddMove(m, "")
		}
		if result != "" {
			r.SetTag("Result", result)
		}
		g, err := r.Game()
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	for _, c := range []struct {
		name   string
		n      int
		result string
		want   Outcome
		text   string
	}{
		{"played out", len(rec.Moves), "", Outcome{Winner: end.Other(), Method: rules.NoMoveLeft}, end.Other().String() + " wins (" + end.String() + " has no move)"},
		{"played out, tag as well", len(rec.Moves), rules.ResultFor(end.Other()), Outcome{Winner: end.Other(), Method: rules.NoMoveLeft}, end.Other().String() + " wins (" + end.String() + " has no move)"},
		{"black resigned", 4, rules.ResultFor(rules.White), Outcome{Winner: rules.White, Method: rules.Resignation}, "white wins (black resigned)"},
		{"white resigned", 5, rules.ResultFor(rules.Black), Outcome{Winner: rules.Black, Method: rules.Resignation}, "black wins (white resigned)"},
		{"unfinished", 5, "*", Outcome{}, "unfinished"},
		{"no tag", 3, "", Outcome{}, "unfinished"},
	} {
		got := outcomeOf(cut(c.n, c.result))
		if got != c.want || got.String() != c.text {
			t.Errorf("%s: %+v %q, want %+v %q", c.name, got, got, c.want, c.text)
		}
	}
}

// TestEvaluateDeterministic: the same seed gives the same analysis,
// however many positions run at once.
func TestEvaluateDeterministic(t *testing.T) {
	e, err := agenttest.RunEngines(t).Get(6)
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := rules.Playout(rand.New(rand.NewPCG(3, 0)), rules.NewPosition(6), 6)
	var runs [][]Position
	for _, par := range []int{1, 8} {
		out, err := Evaluate(context.Background(), e, ps, nil, Config{Limits: player.Limits{Sims: 16}, Parallel: par, MaxStones: -1, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, out)
	}
	for i := range ps {
		a, b := runs[0][i], runs[1][i]
		if a.WinProb != b.WinProb || a.Search.Best != b.Search.Best || rules.MovesText(a.Search.PV) != rules.MovesText(b.Search.PV) {
			t.Errorf("position %d: %v %v %v alone, %v %v %v in parallel", i, a.WinProb, a.Search.Best, a.Search.PV, b.WinProb, b.Search.Best, b.Search.PV)
		}
	}
}

func TestBadInput(t *testing.T) {
	e, err := agenttest.RunEngines(t).Get(6)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := Game(ctx, e, randomGame(8, 1), Config{}); err == nil || !strings.Contains(err.Error(), "not 8x8") {
		t.Errorf("8x8 game with a 6x6 model: %v", err)
	}
	if _, err := Game(ctx, e, randomGame(6, 1), Config{Parallel: -1}); err == nil {
		t.Error("Parallel -1 accepted")
	}
	ctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Game(ctx, e, randomGame(6, 1), Config{}); err == nil {
		t.Error("a cancelled analysis gave no error")
	}
}

// TestTableCounts: the table's closing counts are in the singular for one.
func TestTableCounts(t *testing.T) {
	rep := &Report{Size: 6, Rows: []Row{
		{Ply: 1, Player: rules.Black, Class: Inaccuracy},
		{Ply: 2, Player: rules.White, Class: Mistake},
		{Ply: 3, Player: rules.Black, Class: Blunder},
		{Ply: 5, Player: rules.Black, Class: Blunder},
	}}
	var b strings.Builder
	if err := rep.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"black: 1 inaccuracy, 0 mistakes, 2 blunders\n", "white: 0 inaccuracies, 1 mistake, 0 blunders\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

// TestPanel: the chart is in percent like the table, with about a dozen
// x ticks, and each class of loss is its own series with its own shape.
func TestPanel(t *testing.T) {
	rep := &Report{Size: 6}
	for i := 0; i <= 40; i++ {
		side := rules.Color(i % 2)
		rep.Positions = append(rep.Positions, Position{Ply: i, Side: side, WinProb: 0.5})
	}
	for i, c := range []Class{Good, Inaccuracy, Mistake, Blunder, Blunder} {
		rep.Rows = append(rep.Rows, Row{Ply: i + 1, Class: c})
	}
	p := rep.Panel()
	if p.YMax != 100 || !strings.Contains(p.YLabel, "%") {
		t.Errorf("y axis up to %v labelled %q: want percent", p.YMax, p.YLabel)
	}
	if p.XTicks < 8 {
		t.Errorf("%d x ticks asked for", p.XTicks)
	}
	// X counts move pairs, as the table numbers moves: after White's
	// 20th move (ply 40) is 20, after Black's 3rd (ply 5) 2.5.
	if x := p.Series[0].X; x[40] != 20 || x[5] != 2.5 || !strings.HasPrefix(p.XLabel, "move") {
		t.Errorf("x after ply 40 %v, after ply 5 %v, label %q: want move pairs", x[40], x[5], p.XLabel)
	}
	var names, glyphs []string
	for _, s := range p.Series {
		if s.Marks {
			names = append(names, s.Name)
			glyphs = append(glyphs, s.Glyph.String())
		}
	}
	if got := strings.Join(names, ", "); got != "1 inaccuracy, 1 mistake, 2 blunders" {
		t.Errorf("marks %q, want one series per class", got)
	}
	// The page's shapes: ◆ inaccuracy, ▲ mistake, ✖ blunder.
	if got := strings.Join(glyphs, " "); got != "diamond triangle cross" {
		t.Errorf("marks in the shapes %s, want the page's diamond, triangle and cross", got)
	}
	// The curve is named for what it measures, not for a winner (this
	// report's game is not over; a game White won once read "Black wins").
	if name := p.Series[0].Name; strings.Contains(name, "wins") {
		t.Errorf("the curve is named %q", name)
	}
	var png bytes.Buffer
	if err := chart.WritePNGSize(&png, []chart.Panel{p}, 1, PlotWidth, PlotHeight); err != nil {
		t.Fatal(err)
	}
}

// TestCandidates: each row carries the agent's best moves before it, its
// choice first, at most NumCandidates, with the mover's win probability;
// where the solver settled the position they are exact and agree with
// its winning moves; the JSON rows carry them too.
func TestCandidates(t *testing.T) {
	e, err := agenttest.RunEngines(t).Get(6)
	if err != nil {
		t.Fatal(err)
	}
	rec := randomGame(6, 7)
	rep, err := Game(context.Background(), e, rec, Config{Limits: player.Limits{Sims: 16}, Parallel: 3})
	if err != nil {
		t.Fatal(err)
	}
	exact := 0
	for i, r := range rep.Rows {
		before := rep.Positions[i]
		if len(r.Candidates) == 0 || len(r.Candidates) > NumCandidates || r.Candidates[0].Move != r.Search.Best {
			t.Fatalf("move %d: best %v, candidates %+v", r.Ply, r.Search.Best, r.Candidates)
		}
		for _, c := range r.Candidates {
			if c.WinProb < 0 || c.WinProb > 1 {
				t.Errorf("move %d: candidate %v at %v", r.Ply, c.Move, c.WinProb)
			}
			if before.Exact == Won && before.Winning != nil {
				exact++
				if (c.Exact == Won) != slices.Contains(before.Winning, c.Move) || (c.Exact == Won) != (c.WinProb == 1) {
					t.Errorf("move %d: candidate %+v, winning moves %v", r.Ply, c, before.Winning)
				}
			}
		}
	}
	if exact == 0 {
		t.Error("no candidate in a solved position: the test checked nothing")
	}
	js := rep.JSON()
	for i, r := range js.Rows {
		if len(r.Candidates) != len(rep.Rows[i].Candidates) || r.Candidates[0].Move != r.Best {
			t.Fatalf("JSON row %d: %+v", i, r)
		}
	}
}

// TestMoveNumber: moves are numbered by pairs, as records do.
func TestMoveNumber(t *testing.T) {
	for ply, want := range map[int]string{1: "1.", 2: "1...", 5: "3.", 6: "3...", 61: "31."} {
		if got := MoveNumber(ply); got != want {
			t.Errorf("MoveNumber(%d) = %q, want %q", ply, got, want)
		}
	}
}

// TestTableGolden: the table of a short game, whole, against
// testdata/table.golden (go test ./analysis -run TestTableGolden -update
// rewrites it after a deliberate change): moves numbered by pairs ("2."
// Black's, "2..." White's), with the side.
func TestTableGolden(t *testing.T) {
	rec := randomGame(6, 3)
	ps, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	// The game stopped after 6 moves, White named the winner: Black resigned.
	short := rules.NewRecord(6)
	for _, m := range rec.Moves[:6] {
		short.AddMove(m, "")
	}
	short.SetTag("Result", rules.ResultFor(rules.White))
	g, err := short.Game()
	if err != nil {
		t.Fatal(err)
	}
	rep := &Report{Size: 6, Board: rules.SquareBoard(6), Engine: "the agent", Outcome: outcomeOf(g)}
	for i, m := range rec.Moves[:6] {
		r := Row{Ply: i + 1, Player: ps[i].Turn, Move: m, Before: 0.5 + 0.05*float64(i%3), After: 0.5 - 0.04*float64(i),
			Line: rec.Moves[i:min(i+2, len(rec.Moves))]}
		r.Search.Best, r.Search.PV = m, rec.Moves[i:min(i+3, len(rec.Moves))]
		r.Loss = max(r.Before-r.After, 0)
		r.Class = Classify(r.Loss)
		if i == 4 {
			r.Search.Best, r.Search.PV = rec.Moves[i+1], rec.Moves[i+1:i+3] // not the agent's choice
			r.Verdict = ThrowsWin
		}
		rep.Rows = append(rep.Rows, r)
	}
	var b strings.Builder
	if err := rep.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "table.golden", []byte(b.String()))
	for _, line := range []string{"\n1.    black", "\n1...  white", "\n3.    black", "\n3...  white"} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("the table lacks %q", line)
		}
	}
}
