package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/konanezero/konane/internal/golden"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// TestSpecsGolden pins what ParseSpec says of player specs of every kind,
// bad ones above all, with the model kind's settings that this package
// reads, and the strength a model spec plays at: testdata/specs.golden,
// byte for byte; -update rewrites it.
func TestSpecsGolden(t *testing.T) {
	specs := []string{
		"", "minimax:depth=3", "random", " Greedy ", "greedy:name=", "random:sims=3", "random:level=easy",
		"alphabeta", "alphabeta:dpth=3", "alphabeta:depth=x", "alphabeta:depth=0", "alphabeta:depth=3,depth=4",
		"alphabeta:time=fast", "alphabeta:depth", "alphabeta:ptemp=1", "alphabeta:solver=on",
		"pvs:lmr=maybe", "pvs:level=easy", "pvs:level=1,time=2s", "pvs:level=max,depth=3", "pvs:level=expert", // pvs's eval= is player's own (spec_test)
		"mcts:sims=-1", "mcts:c=0", "mcts:level=easy", "perfect:maxstones=1",
		"model", "model:sims=100", "model:x.safetensors", "model:x.safetensors,name=n",
		"model:x.safetensors,level=", "model:x.safetensors,level=Medium", "model:x.safetensors,level=expert",
		"model:x.safetensors,level=1", "model:x.safetensors,level=Casual", "model:x.safetensors,level=9",
		"model:x.safetensors,sims=9,solver=maybe", "model:x.safetensors,sims=9,solver=OFF",
		"model:x.safetensors,sims=9,ptemp=0", "model:x.safetensors,sims=9,ptemp=NaN", "model:x.safetensors,sims=9,ptemp=1.0",
		"model:x.safetensors,sims=9,ptemp=1,ptemp=2", "model:x.safetensors,sims=9,board=6", "model:x.safetensors,sims=9,board=9", "model:x.safetensors,sims=9,board=7x6", "model:x.safetensors,sims=9,board=size-9", "model:x.safetensors,sims=9,board=17", "model:x.safetensors,sims=9,depth=3", "model:x.safetensors,sims=9,c=1",
		"model:x.safetensors,level=easy,solver=on", "model:x.safetensors,level=hard,time=1s", "model:x.safetensors,time=1s",
		"model:level=easy,file=a,b.safetensors", "model:a.safetensors,level=easy,file=b.safetensors",
		"model:x.safetensors,sims=9,lr=0.1", "model:x.safetensors,=3", "model:x.safetensors,level",
	}
	var out strings.Builder
	for _, text := range specs {
		s, err := ParseSpec(text)
		if err != nil {
			fmt.Fprintf(&out, "%q: %v\n", text, err)
			continue
		}
		fmt.Fprintf(&out, "%q: %s %q model %q sims %d time %v", text, s.Kind, s.Name, s.Model, s.Sims, s.Time)
		if s.Kind == player.KindModel {
			st, err := specLimits(s)
			fmt.Fprintf(&out, " strength %+v %v", st, err)
		}
		out.WriteString("\n")
	}
	golden.Check(t, "specs.golden", []byte(out.String()))
}

// TestOnBoard: a model spec without board= gets the match's board, one
// with it keeps its own, other kinds are unchanged, and the spec given
// is not modified.
func TestOnBoard(t *testing.T) {
	b := rules.Board{W: 7, H: 6, Start: rules.Gap}
	for text, want := range map[string]string{
		"model:x.safetensors,sims=9":                   "7x6",
		"model:x.safetensors,sims=9,board=8":           "8x8",
		"model:x.safetensors,sims=9,board=7x6/removal": "7x6/removal",
		"pvs:depth=2": "",
	} {
		s, err := ParseSpec(text)
		if err != nil {
			t.Fatal(err)
		}
		before := fmt.Sprint(s.Settings)
		got := OnBoard(s, b)
		if got.Settings[settingBoard] != want || fmt.Sprint(s.Settings) != before {
			t.Errorf("%s: board %q, want %q (the spec given: %v, was %v)", text, got.Settings[settingBoard], want, s.Settings, before)
		}
	}
}

// TestPVSLevel: pvs:level=L plays the classical engine's moves but for
// the level's share of random ones (Level.Noise): at newcomer some of its
// moves differ from those of the same engine without the level, on
// 7x6 and on 9x8 (a wide board), and the same seed plays the same moves;
// at hard (no noise) none differs.
func TestPVSLevel(t *testing.T) {
	moves := func(spec string, seed uint64, b rules.Board) []string {
		t.Helper()
		s, err := ParseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		f, err := NewFactory(s)
		if err != nil {
			t.Fatal(err)
		}
		p, err := f.New(seed)
		if err != nil {
			t.Fatal(err)
		}
		wp, ok := p.(player.WidePlayer)
		if !ok {
			t.Fatalf("%s: %T is no WidePlayer", spec, p)
		}
		g, err := rules.NewWideGame(b)
		if err != nil {
			t.Fatal(err)
		}
		// The moves the player would play in the positions of one fixed
		// game, each position's first legal move played to go on.
		var out []string
		ctx := context.Background()
		for ply := 0; ply < 24 && !g.Over(); ply++ {
			pos := g.Position()
			m, err := wp.MoveWide(ctx, pos)
			if err != nil {
				t.Fatal(err)
			}
			legal := pos.LegalMoves(nil)
			if !slices.Contains(legal, m) {
				t.Fatalf("%s: illegal move %v", spec, m)
			}
			out = append(out, m.String())
			if _, err := g.PlayString(legal[0].String()); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	for _, b := range []rules.Board{{W: 7, H: 6, Start: rules.Gap}, {W: 9, H: 8, Start: rules.Gap}} {
		engine := moves("pvs:depth=2", 1, b)
		weak := moves("pvs:level=newcomer,depth=2", 1, b)
		if !slices.Equal(weak, moves("pvs:level=newcomer,depth=2", 1, b)) {
			t.Errorf("%v: newcomer with seed 1 played two ways", b)
		}
		differ := 0
		for i := range engine {
			if engine[i] != weak[i] {
				differ++
			}
		}
		if differ == 0 || differ == len(engine) {
			t.Errorf("%v: newcomer's moves differ from the engine's in %d of %d positions, want some, not all", b, differ, len(engine))
		}
		if hard := moves("pvs:level=hard,depth=2", 1, b); !slices.Equal(hard, engine) {
			t.Errorf("%v: hard (no noise) played %v, the engine %v", b, hard, engine)
		}
	}
}
