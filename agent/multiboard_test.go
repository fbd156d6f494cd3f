package agent_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/models"
	"github.com/konanezero/konane/net/nettest"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// TestMultiBoardModelEngines: a multi-board model file gives an engine
// for every square board, each saying whether the network was trained
// there; LoadModel without a size gives it 8x8.
func TestMultiBoardModelEngines(t *testing.T) {
	path := agenttest.MultiBoardModelFile(t, rules.Board{W: 6, H: 6}, rules.Board{W: 8, H: 8})
	es, err := agent.OpenEngines(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := es.Sizes(); !slices.Equal(got, []int{4, 5, 6, 7, 8}) {
		t.Fatalf("sizes %v", got)
	}
	for n := 4; n <= 8; n++ {
		e, err := es.Get(n)
		if err != nil {
			t.Fatal(err)
		}
		if trained := n == 6 || n == 8; (e.Note() == "") != trained || e.Size() != n {
			t.Errorf("%dx%d: size %d, note %q", n, n, e.Size(), e.Note())
		}
	}
	if lm, err := agent.LoadModel(path, 0); err != nil || lm.Shape() != 8 {
		t.Errorf("agent.LoadModel(path, 0): %v", err)
	}
}

// TestGetBoardNoteOnStart: GetBoard makes one engine per shape, for both
// of its starts; NoteOn says, per start, whether the network was trained
// there (7x6 from the gap: yes; 7x6 with the removals: no).
func TestGetBoardNoteOnStart(t *testing.T) {
	gap := rules.Board{W: 7, H: 6, Start: rules.Gap}
	removal := rules.Board{W: 7, H: 6, Start: rules.Removal}
	es, err := agent.OpenEngines(agenttest.MultiBoardModelFile(t, gap, rules.SquareBoard(8)))
	if err != nil {
		t.Fatal(err)
	}
	eg, err := es.GetBoard(gap)
	if err != nil {
		t.Fatal(err)
	}
	er, err := es.GetBoard(removal)
	if err != nil {
		t.Fatal(err)
	}
	if eg != er {
		t.Fatal("GetBoard made two engines for one shape")
	}
	if n := er.NoteOn(gap); n != "" {
		t.Errorf("7x6 gap, trained there: note %q", n)
	}
	if n := er.NoteOn(removal); n == "" {
		t.Error("7x6 with the removals, not trained there: no note")
	}
}

// TestWideBoardAgent: on a board above 8x8 that the multi-board model
// was trained on, GetBoard gives its network's engine, whose agent plays
// legal games there (MoveAny) at a level that draws and one that does
// not, the same game for the same seed, and advises (AdviseAny) with a
// win probability; a board it was not trained on gets no engine (the
// classical engine plays it).
func TestWideBoardAgent(t *testing.T) {
	b9 := rules.Board{W: 9, H: 8, Start: rules.Gap}
	es := agenttest.RunMultiBoard(t, rules.SquareBoard(8), b9)
	e, err := es.GetBoard(b9)
	if err != nil {
		t.Fatal(err)
	}
	if e.NoteOn(b9) != "" || e.Size() != rules.ShapeCode(9, 8) {
		t.Errorf("9x8 engine: size %d, note %q", e.Size(), e.NoteOn(b9))
	}
	if e2, _ := es.GetBoard(b9); e2 != e {
		t.Error("GetBoard made two engines for 9x8")
	}
	ctx := context.Background()
	for _, level := range []string{"casual", "steady"} {
		s, err := agent.NewLimits(level, 8, 0)
		if err != nil {
			t.Fatal(err)
		}
		var games [2][]rules.WideMove
		for i := range games {
			a, err := e.NewAgent(5)
			if err != nil {
				t.Fatal(err)
			}
			p, _ := b9.WidePosition()
			for p.HasMoves() {
				an, err := a.MoveAny(ctx, p, s)
				if err != nil {
					t.Fatalf("%s after %v: %v", level, games[i], err)
				}
				if !p.Legal(an.Best) || an.Side != p.Turn || len(an.PV) == 0 || an.PV[0] != an.Best {
					t.Fatalf("%s after %v: move %v, side %v, line %q", level, games[i], an.Best, an.Side, an.Line())
				}
				if len(games[i]) == 10 {
					adv, err := a.AdviseAny(ctx, p, agent.AdviceLimits(s))
					if err != nil || !p.Legal(adv.Best) || adv.WinProb() < 0 || adv.WinProb() > 1 {
						t.Errorf("%s: advice %v, win probability %v: %v", level, adv.Best, adv.WinProb(), err)
					}
				}
				games[i] = append(games[i], an.Best)
				p = p.Play(an.Best)
			}
		}
		if !slices.Equal(games[0], games[1]) {
			t.Errorf("%s: seed 5 played two games:\n%v\n%v", level, games[0], games[1])
		}
	}
	a, _ := e.NewAgent(1)
	p11, _ := rules.Board{W: 11, H: 8, Start: rules.Gap}.WidePosition()
	if _, err := a.MoveAny(ctx, p11, player.Limits{Sims: 4}); err == nil || !strings.Contains(err.Error(), "the agent plays 9x8, not 11x8") {
		t.Errorf("the 9x8 agent on 11x8: %v", err)
	}
	// On a board a Position holds the error names both boards too (not
	// their shape codes).
	p7, _ := rules.Board{W: 7, H: 6, Start: rules.Gap}.WidePosition()
	for _, tt := range []struct {
		a    *agent.Agent
		want string
	}{{a, "agent: the agent plays 9x8, not 7x6"}, {sixAgent(t), "agent: the agent plays 6x6, not 7x6"}} {
		if _, err := tt.a.MoveAny(ctx, p7, player.Limits{Sims: 4}); err == nil || err.Error() != tt.want {
			t.Errorf("on 7x6: %v, want %q", err, tt.want)
		}
	}
	var nm *agent.NoModelError
	if _, err := es.GetBoard(rules.Board{W: 11, H: 8, Start: rules.Gap}); !errors.As(err, &nm) {
		t.Errorf("GetBoard(11x8), not trained there: %v, want a NoModelError", err)
	}
	solver, err := agent.NewSolverEngine(5)
	if err != nil {
		t.Fatal(err)
	}
	sa, _ := solver.NewAgent(1)
	if _, err := sa.MoveAny(ctx, p11, player.Limits{Sims: 4}); err == nil {
		t.Error("the exact solver's agent played 11x8")
	}
}

// sixAgent is an agent of the test engines' 6x6 network.
func sixAgent(t *testing.T) *agent.Agent {
	t.Helper()
	e, err := agenttest.RunEngines(t).Get(6)
	if err != nil {
		t.Fatal(err)
	}
	a, err := e.NewAgent(1)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestPlayerOn: PlayerOn says who plays a board as GetBoard gives it,
// before and after GetBoard made a rectangle's engine, with its note:
// the shipped engines (today's table, written out: the solver on 4x4
// and 5x5, the per-size networks on 6x6 to 8x8, the gap network on 7x6,
// 9x8, 11x8 and 15x12, the classical engine elsewhere) and a
// multi-board model trained on 7x6 and 9x8.
func TestPlayerOn(t *testing.T) {
	shipped, err := agent.OpenEngines("")
	if err != nil {
		t.Fatal(err)
	}
	multi, err := agent.OpenEngines(agenttest.MultiBoardModelFile(t, rules.Board{W: 7, H: 6, Start: rules.Gap}, rules.Board{W: 9, H: 8, Start: rules.Gap}))
	if err != nil {
		t.Fatal(err)
	}
	// Board, who plays it, and "+" where a note says the network was not
	// trained there.
	for es, boards := range map[*agent.Engines]string{
		shipped: "4x4 solver, 5x5 solver, 6x6 network, 7x7 network, 8x8 network, 7x6 network, 9x8 network, 11x8 network, 15x12 network, " +
			"7x6/removal classical, 9x8/removal classical, 10x10 classical, 16x16 classical",
		multi: "6x6 network+, 7x6 network, 7x6/removal network+, 5x8 network+, 9x8 network, 9x8/removal network+, 11x8 classical",
	} {
		for _, entry := range strings.Split(boards, ", ") {
			name, who, _ := strings.Cut(entry, " ")
			playerOn(t, es, name, strings.TrimSuffix(who, "+"), strings.HasSuffix(who, "+"))
		}
	}
}

// playerOn checks what es.PlayerOn says of board name against want and
// noted, and against what GetBoard gives, before and after GetBoard.
func playerOn(t *testing.T, es *agent.Engines, name, want string, noted bool) {
	t.Helper()
	b, err := rules.ParseBoard(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, made := range []bool{false, true} {
		who, note := es.PlayerOn(b)
		if who != want || (note != "") != noted {
			t.Errorf("%s (engine made %v): %s, note %q; want %s, noted %v", b, made, who, note, want, noted)
		}
		e, err := es.GetBoard(b)
		var nm *agent.NoModelError
		switch {
		case who == agent.PlayerClassical && !errors.As(err, &nm):
			t.Errorf("%s: classical, but GetBoard gives %v", b, err)
		case who == agent.PlayerClassical:
		case err != nil:
			t.Errorf("%s: %s, but GetBoard: %v", b, who, err)
		case (e.Model() == nil) != (who == agent.PlayerSolver) || e.NoteOn(b) != note:
			t.Errorf("%s: %s with note %q, but GetBoard's engine has model %v, note %q", b, who, note, e.Model() != nil, e.NoteOn(b))
		}
	}
}

// TestEnginesOfTable: the engines of a table of networks play exactly
// its boards (a start not listed is the classical engine's, as is a
// board the multi-board file was trained on but that has no row), a
// single-board file its square, the exact solver 4x4 and 5x5; a row on
// a solver's board is refused.
func TestEnginesOfTable(t *testing.T) {
	gap76, gap98 := rules.Board{W: 7, H: 6, Start: rules.Gap}, rules.Board{W: 9, H: 8, Start: rules.Gap}
	multi := nettest.TinyMultiBoardModel(t, 1)
	meta := multi.Meta()
	meta.Boards = []rules.Board{rules.SquareBoard(6), gap76, gap98, {W: 11, H: 8, Start: rules.Gap}}
	const single = "single.safetensors" // a single-board file, whatever its name
	fsys := fstest.MapFS{
		models.MultiFile: {Data: nettest.ModelBytes(t, multi.WithMeta(meta))},
		single:           {Data: nettest.ModelBytes(t, agenttest.TinyModel(t, 8))},
	}
	rows := []models.Row{
		{Board: rules.SquareBoard(6), File: models.MultiFile},
		{Board: rules.SquareBoard(8), File: single},
		{Board: gap76, File: models.MultiFile},
		{Board: gap98, File: models.MultiFile},
	}
	es, err := agent.EnginesOf(models.NewSet(fsys, rows))
	if err != nil {
		t.Fatal(err)
	}
	agenttest.Run(t, es)
	if got, want := es.Sizes(), []int{4, 5, 6, 8}; !slices.Equal(got, want) {
		t.Errorf("Sizes() = %v, want %v", got, want)
	}
	for _, entry := range strings.Split("4x4 solver, 5x5 solver, 6x6 network, 7x7 classical, 8x8 network, 7x6 network, 7x6/removal classical, 9x8 network, 9x8/removal classical, 11x8 classical, 16x16 classical", ", ") {
		name, who, _ := strings.Cut(entry, " ")
		playerOn(t, es, name, who, false)
	}
	e, err := es.GetBoard(gap98)
	if err != nil {
		t.Fatal(err)
	}
	a, err := e.NewAgent(1)
	if err != nil {
		t.Fatal(err)
	}
	p, err := gap98.WidePosition()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.MoveAny(context.Background(), p, player.Limits{Sims: 8}); err != nil {
		t.Errorf("a move on 9x8: %v", err)
	}

	rows = append(rows, models.Row{Board: rules.SquareBoard(5), File: models.MultiFile})
	if _, err := agent.EnginesOf(models.NewSet(fsys, rows)); err == nil || !strings.Contains(err.Error(), "5x5, which the exact solver plays") {
		t.Errorf("a row on 5x5: %v", err)
	}
}

// TestRunPointerAsModel: a training run's models/latest given where a
// model file is wanted gets one line naming the model it points to, from
// every way a command opens a model file.
func TestRunPointerAsModel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "latest")
	if err := os.WriteFile(path, []byte("gen-000934.safetensors\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := path + " is a training run's pointer to its newest model, not a model file: give that model, " + filepath.Join(filepath.Dir(path), "gen-000934.safetensors")
	_, err1 := agent.OpenEngines(path)
	_, err2 := agent.LoadModel(path, 0)
	_, err3 := agent.OpenBoardEngine(path, rules.Board{W: 9, H: 8, Start: rules.Gap})
	_, err4 := agent.OpenEngine(path, 6)
	for i, err := range []error{err1, err2, err3, err4} {
		if err == nil || err.Error() != "agent: "+want {
			t.Errorf("%d: %v, want %q", i+1, err, want)
		}
	}
}
