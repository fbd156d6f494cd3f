package agent_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/models"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// playOut plays a whole game of the agent against itself, asking for
// advice before every move when advise is set, and returns the moves.
func playOut(t *testing.T, e *agent.Engine, seed uint64, s player.Limits, advise bool) []rules.Move {
	t.Helper()
	ctx := context.Background()
	a, err := e.NewAgent(seed)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.NewGame(e.Size())
	for !g.Over() {
		if advise {
			if _, err := a.Advise(ctx, g.Position(), s); err != nil {
				t.Fatal(err)
			}
		}
		p := g.Position()
		an, err := a.Move(ctx, p, s)
		if err != nil {
			t.Fatal(err)
		}
		checkAnalysis(t, p, an)
		if err := g.Play(an.Best); err != nil {
			t.Fatal(err)
		}
	}
	return g.Moves()
}

func checkAnalysis(t *testing.T, p rules.Position, an agent.Analysis) {
	t.Helper()
	if an.Side != p.Turn || len(an.PV) == 0 || an.PV[0] != an.Best {
		t.Fatalf("analysis %+v of a position with %v to move", an, p.Turn)
	}
	if w := an.WinProb(); !(w >= 0 && w <= 1) || an.WinProbFor(p.Turn.Other()) != 1-w {
		t.Fatalf("win probability %v, for the other side %v", w, an.WinProbFor(p.Turn.Other()))
	}
	q := p
	for i, m := range an.PV {
		if !q.Legal(m) {
			t.Fatalf("principal line %s: move %d is illegal", an.Line(), i+1)
		}
		q = q.Play(m)
	}
	if got := len(strings.Fields(an.Line())); got != len(an.PV) {
		t.Fatalf("line %q for %d moves", an.Line(), len(an.PV))
	}
}

// TestAgentGames: the shipped 6x6 model plays whole legal games; the same
// seed gives the same game; asking for advice does not change its play.
func TestAgentGames(t *testing.T) {
	es := agenttest.RunEngines(t)
	e, err := es.Get(6)
	if err != nil {
		t.Fatal(err)
	}
	s := player.Limits{Sims: 8}
	a := playOut(t, e, 1, s, false)
	b := playOut(t, e, 1, s, false)
	c := playOut(t, e, 1, s, true)
	if !slices.Equal(a, b) {
		t.Errorf("same seed, different games:\n%s\n%s", rules.MovesText(a), rules.MovesText(b))
	}
	if !slices.Equal(a, c) {
		t.Errorf("advice changed the agent's play:\n%s\n%s", rules.MovesText(a), rules.MovesText(c))
	}
}

func TestAgentErrors(t *testing.T) {
	es := agenttest.RunEngines(t)
	e, _ := es.Get(6)
	a, err := e.NewAgent(1)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := a.Move(ctx, rules.NewPosition(8), player.Limits{Sims: 4}); err == nil || !strings.Contains(err.Error(), "plays 6x6, not 8x8") {
		t.Errorf("8x8 position for a 6x6 model: %v", err)
	}
	if _, err := a.Move(ctx, rules.NewPosition(6), player.Limits{}); err == nil {
		t.Error("no strength: no error")
	}
}

func TestEngines(t *testing.T) {
	es, err := agent.OpenEngines("")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{4, 5, 6, 7, 8}; !slices.Equal(es.Sizes(), want) {
		t.Errorf("engines for %v, want the squares the solver and the shipped networks play, %v", es.Sizes(), want)
	}
	for _, n := range es.Sizes() {
		e, err := es.Get(n)
		switch {
		case err != nil || e.Size() != n:
			t.Errorf("Get(%d): %v", n, err)
		case agent.Perfect(n) && e.Model() != nil:
			t.Errorf("Get(%d): a model, want the exact solver", n)
		case !agent.Perfect(n) && (e.Model() == nil || e.Model().Shape() != n || !slices.Contains(models.Shipped().Sizes(), n)):
			t.Errorf("Get(%d): no shipped model", n)
		}
	}
	missing := 0
	for n := rules.MinSize; n <= rules.MaxSize; n++ {
		if !slices.Contains(es.Sizes(), n) {
			missing = n
		}
	}
	if missing > 0 {
		_, err = es.Get(missing)
		var nm *agent.NoModelError
		if !errors.As(err, &nm) || nm.Size != missing || !slices.Equal(nm.Sizes, es.Sizes()) || !strings.Contains(err.Error(), "(there is one for "+es.SizeList()+")") {
			t.Errorf("Get(%d): %v; want the sizes there are (%s)", missing, err, es.SizeList())
		}
	}

	// A model file gives an engine for its size only.
	path := agenttest.TinyModelFile(t, 5)
	es, err = agent.OpenEngines(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(es.Sizes(), []int{5}) || es.SizeList() != "5x5" {
		t.Errorf("engines of a 5x5 model file: %v", es.Sizes())
	}
	if _, err := agent.LoadModel(path, 6); err == nil || !strings.Contains(err.Error(), "plays 5x5, not 6x6") {
		t.Errorf("LoadModel of a 5x5 file for 6x6: %v", err)
	}
	if _, err := agent.LoadModel(filepath.Join(t.TempDir(), "missing"), 0); err == nil {
		t.Error("LoadModel of a missing file: no error")
	}
	if m, err := agent.LoadModel("", 7); err != nil || m.Shape() != 7 {
		t.Errorf("LoadModel of the shipped 7x7 model: %v", err)
	}
	if _, err := agent.LoadModel("", 9); err == nil || !strings.Contains(err.Error(), "9x9") {
		t.Errorf("LoadModel of an unshipped size: %v", err)
	}
	m := agenttest.TinyModel(t, 5)
	if _, err := agent.NewEngines(m, m); err == nil {
		t.Error("two models of one size: no error")
	}
	if _, err := agent.NewEngines(); err == nil {
		t.Error("no model: no error")
	}
}

// TestNewFactory: a model spec gets its model file loaded into an engine
// whose factory plays that size; the other kinds are player's.
func TestNewFactory(t *testing.T) {
	path := agenttest.TinyModelFile(t, 5)
	spec, err := agent.ParseSpec("model:" + path + ",sims=4,name=tiny")
	if err != nil {
		t.Fatal(err)
	}
	f, err := agent.NewFactory(spec)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name() != "tiny" || f.CheckBoard(rules.SquareBoard(5)) != nil || f.CheckBoard(rules.SquareBoard(6)) == nil {
		t.Errorf("factory %s: CheckBoard 5x5 %v, 6x6 %v", f.Name(), f.CheckBoard(rules.SquareBoard(5)), f.CheckBoard(rules.SquareBoard(6)))
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()
	p, err := f.New(1)
	if err != nil {
		t.Fatal(err)
	}
	pos := rules.NewPosition(5)
	if m, err := p.Move(ctx, pos); err != nil || !pos.Legal(m) {
		t.Errorf("move %v, %v", m, err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}

	spec.Model = filepath.Join(t.TempDir(), "missing.safetensors")
	if _, err := agent.NewFactory(spec); err == nil || !strings.Contains(err.Error(), "missing.safetensors") {
		t.Errorf("missing model file: %v", err)
	}
	if f, err := agent.NewFactory(player.Spec{Kind: player.KindGreedy, Name: "g"}); err != nil || f.Name() != "g" {
		t.Errorf("greedy: %v", err)
	}
}

// TestPolicyTemp: a model spec's players search with the agent's policy
// temperature for the model's size unless ptemp= gives another.
func TestPolicyTemp(t *testing.T) {
	if agent.PolicyTemp(6) == 1 || agent.PolicyTemp(8) != 1 {
		t.Fatalf("policy temperatures 6x6 %v, 8x8 %v: this test expects 6x6's to differ from 1", agent.PolicyTemp(6), agent.PolicyTemp(8))
	}
	path := agenttest.TinyModelFile(t, 6)
	for _, tt := range []struct {
		text string
		want float64
	}{
		{"model:" + path + ",sims=4", agent.PolicyTemp(6)},
		{"model:" + path + ",level=medium", agent.PolicyTemp(6)},
		{"model:" + path + ",sims=4,ptemp=1", 1},
		{"model:" + path + ",sims=4,ptemp=0.5", 0.5},
	} {
		spec, err := agent.ParseSpec(tt.text)
		if err != nil {
			t.Fatal(err)
		}
		f, err := agent.NewFactory(spec)
		if err != nil {
			t.Fatal(err)
		}
		p, err := f.New(1)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.(*player.Neural).Config().PolicyTemp; got != tt.want {
			t.Errorf("%s: the player's policy temperature is %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestMoveAnyIsMoveOnNarrowBoards: on a board a Position holds, MoveAny
// and AdviseAny search as Move and Advise do (the exact solver's agent
// on 5x5, the network's on 6x6, at a level that draws and one that does
// not): two agents of one seed, one asked through each, give the same
// moves, lines, values and simulations, game after game.
func TestMoveAnyIsMoveOnNarrowBoards(t *testing.T) {
	es := agenttest.RunEngines(t)
	ctx := context.Background()
	for _, n := range []int{5, 6} {
		e, err := es.Get(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []player.Limits{{Sims: 8}, {Sims: 8, NoSolver: true, Choice: player.Choice{Temp: 1, Noise: 0.3}}} {
			narrow, err := e.NewAgent(7)
			if err != nil {
				t.Fatal(err)
			}
			anyBoard, err := e.NewAgent(7)
			if err != nil {
				t.Fatal(err)
			}
			searches := []struct {
				narrow func(context.Context, rules.Position, player.Limits) (agent.Analysis, error)
				any    func(context.Context, rules.WidePosition, player.Limits) (agent.AnalysisOf[rules.WideMove], error)
			}{{narrow.Advise, anyBoard.AdviseAny}, {narrow.Move, anyBoard.MoveAny}}
			g, _ := rules.NewGame(n)
			for !g.Over() {
				p := g.Position()
				var an agent.Analysis
				for _, search := range searches {
					var anAny agent.AnalysisOf[rules.WideMove]
					var err, errAny error
					an, err = search.narrow(ctx, p, s)
					anAny, errAny = search.any(ctx, p.Wide(), s)
					if err != nil || errAny != nil {
						t.Fatal(err, errAny)
					}
					if an.Side != anAny.Side || !reflect.DeepEqual(mcts.MapResult(an.ResultOf, wide), anAny.ResultOf) {
						t.Fatalf("%dx%d %+v after %s:\nMove/Advise       %s\nMoveAny/AdviseAny %s", n, n, s, rules.MovesText(g.Moves()), said(an), said(anAny))
					}
				}
				if err := g.Play(an.Best); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// wide is m on the wide layout, NoMove as NoWideMove.
func wide(m rules.Move) rules.WideMove {
	if m == rules.NoMove {
		return rules.NoWideMove
	}
	return m.Wide()
}

// said writes what an analysis of either layout says, in notation.
func said[M interface {
	comparable
	String() string
}](an agent.AnalysisOf[M]) string {
	return fmt.Sprintf("%s %s | %s %v %v %d %v %v", an.Side, an.Best, an.Line(), an.Value, an.Proven, an.Sims, an.Visits, an.WinProb())
}
