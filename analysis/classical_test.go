package analysis

import (
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/internal/golden"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// readGame reads a game of testdata: game-9x8.txt and game-7x6.txt are
// games of `konane arena --board B --games 2 --seed 5 --out DIR greedy
// random` (DIR/games/00001.txt).
func readGame(t *testing.T, name string) *rules.Record {
	t.Helper()
	rec, err := rules.ReadRecordFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestScoreWinProb: proven scores are exact, the others a probability
// strictly between 0 and 1, 0.5 at 0 and rising with the score.
func TestScoreWinProb(t *testing.T) {
	for _, c := range []struct {
		score int
		want  float64
		exact Exact
	}{{player.WinScore - 9, 1, Won}, {-player.WinScore + 4, 0, Lost}, {0, 0.5, Unsolved}} {
		if p, e := ScoreWinProb(player.WideResult{Score: c.score}); p != c.want || e != c.exact {
			t.Errorf("score %d: %v %v, want %v %v", c.score, p, e, c.want, c.exact)
		}
	}
	prev := 0.0
	for s := -800; s <= 800; s += 4 { // beyond, float64 saturates near 0 and 1
		p, e := ScoreWinProb(player.WideResult{Score: s})
		if e != Unsolved || p <= prev || p >= 1 {
			t.Fatalf("score %d: %v %v after %v: want rising, below 1", s, p, e, prev)
		}
		prev = p
	}
	if p, _ := ScoreWinProb(player.WideResult{Score: ScoreScale}); math.Abs(p-1/(1+math.Exp(-1))) > 1e-12 {
		t.Errorf("score ScoreScale: %v", p)
	}
}

// TestReviewClassicalGolden: the classical engine's review of a 9x8 and a 7x6
// game at a fixed depth, table then JSON, against
// testdata/review-WxH.golden (-update rewrites them): the same twice,
// headed by the board, its start and the engine, moves in the board's
// notation, each row's line starting with the move played.
func TestReviewClassicalGolden(t *testing.T) {
	for _, dims := range []string{"9x8", "7x6"} {
		rec := readGame(t, "game-"+dims+".txt")
		cfg := ClassicalConfig{Depth: 3, Seed: 1}
		rep, err := ClassicalGame(context.Background(), rec, cfg)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ClassicalGame(context.Background(), rec, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := rep.WriteTable(&b); err != nil {
			t.Fatal(err)
		}
		j, err := json.Marshal(rep.JSON())
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
		var b2 strings.Builder
		again.WriteTable(&b2)
		j2, _ := json.Marshal(again.JSON())
		b2.Write(j2)
		b2.WriteByte('\n')
		if b.String() != b2.String() {
			t.Errorf("%s: two reviews differ:\n%s\n%s", dims, b.String(), b2.String())
		}
		golden.Check(t, "review-"+dims+".golden", []byte(b.String()))
		want := dims + " game, gap start, reviewed by the classical engine (pvs, depth 3 per position; "
		if !strings.HasPrefix(b.String(), want) {
			t.Errorf("%s: first line %q, want it to start %q", dims, strings.SplitN(b.String(), "\n", 2)[0], want)
		}
		var back JSONReport
		if err := json.Unmarshal(j, &back); err != nil || back.Board != dims || back.Start != "gap" || !strings.HasPrefix(back.Engine, "the classical engine") {
			t.Errorf("%s: JSON %+v (%v)", dims, back, err)
		}
		played := rec.MoveStrings()
		if len(rep.Rows) != len(played) || len(rep.Positions) != len(played)+1 {
			t.Fatalf("%s: %d rows, %d positions for %d moves", dims, len(rep.Rows), len(rep.Positions), len(played))
		}
		for i, r := range rep.Rows {
			if r.move() != played[i] || back.Rows[i].Move != played[i] || len(r.Wide.PV) == 0 || r.Wide.Line[0] != r.Wide.Move ||
				!slices.Equal(r.Wide.Line[1:], rep.Rows[min(i+1, len(rep.Rows)-1)].Wide.PV) && i+1 < len(rep.Rows) {
				t.Errorf("%s: move %d %s (record %s): pv %v line %v", dims, r.Ply, r.move(), played[i], r.Wide.PV, r.Wide.Line)
			}
			if r.Loss != max(0, r.Before-r.After) || r.Class != Classify(r.Loss) {
				t.Errorf("%s: move %d: before %v after %v loss %v class %v", dims, r.Ply, r.Before, r.After, r.Loss, r.Class)
			}
		}
		if title := rep.Panel().Title; !strings.HasPrefix(title, dims+" game (gap start)") {
			t.Errorf("%s: the plot's title %q does not name the board", dims, title)
		}
		// The game ends with White out of moves: an exact loss.
		if end := rep.Positions[len(rep.Positions)-1]; end.Exact != Lost || end.WinProb != 0 || rep.Outcome.Winner != rules.Black {
			t.Errorf("%s: the end %+v, outcome %v", dims, end, rep.Outcome)
		}
	}
}

// TestClassicalAnnotate: the annotated record of a 9x8 review reads back
// with its board, its moves (on the wide layout) and the rows' comments.
func TestClassicalAnnotate(t *testing.T) {
	rec := readGame(t, "game-9x8.txt")
	rep, err := ClassicalGame(context.Background(), rec, ClassicalConfig{Depth: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"g.txt", "g.json"} {
		data, err := rep.Annotate(rec, "test").MarshalFor(name)
		if err != nil {
			t.Fatal(err)
		}
		back, err := rules.ParseRecord(data)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, data)
		}
		if back.Board() != rec.Board() || !slices.Equal(back.MoveStrings(), rec.MoveStrings()) || back.Tag("Annotator") != "test" {
			t.Fatalf("%s: read back %v, %v", name, back.Board(), back.MoveStrings())
		}
		for i, r := range rep.Rows {
			if back.Comments[i] != r.Comment() || !strings.HasPrefix(r.Comment(), r.Player.String()+" ") {
				t.Errorf("%s: move %d comment %q, want %q", name, i+1, back.Comments[i], r.Comment())
			}
		}
	}
}

// TestClassicalConfig: a review needs a depth or a time.
func TestClassicalConfig(t *testing.T) {
	rec := readGame(t, "game-7x6.txt")
	for _, cfg := range []ClassicalConfig{{}, {Depth: -1}, {Time: -1}} {
		if _, err := ClassicalGame(context.Background(), rec, cfg); err == nil || !strings.Contains(err.Error(), "want a depth or a time") {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
}

// TestNetworkRectangle: a multi-board model's network reviews a 7x6 game
// as it does a square one, the report naming the board and its start.
func TestNetworkRectangle(t *testing.T) {
	rec := readGame(t, "game-7x6.txt")
	e, err := agent.OpenBoardEngine(agenttest.MultiBoardModelFile(t, rules.Board{W: 7, H: 6, Start: rules.Gap}), rec.Board())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go e.Run(ctx)
	rep, err := Game(ctx, e, rec, Config{Limits: player.Limits{Sims: 4}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != rec.Len() || !strings.HasPrefix(rep.Heading(), "7x6 game, gap start, reviewed by the agent") {
		t.Fatalf("%d rows for %d moves, heading %q", len(rep.Rows), rec.Len(), rep.Heading())
	}
	for i, r := range rep.Rows {
		if r.Move != rec.Moves[i] || r.Line[0] != r.Move || len(r.Search.PV) == 0 {
			t.Errorf("move %d %v (record %v): pv %v line %v", r.Ply, r.Move, rec.Moves[i], r.Search.PV, r.Line)
		}
	}
	if j := rep.JSON(); j.Board != "7x6" || j.Start != "gap" || j.Size != 0 {
		t.Errorf("JSON board %q start %q size %d", j.Board, j.Start, j.Size)
	}
}
