package agent

import (
	"fmt"
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
		"pvs:lmr=maybe", "pvs:level=easy", // pvs's eval= is player's own (spec_test)
		"mcts:sims=-1", "mcts:c=0", "mcts:level=easy", "perfect:maxstones=1",
		"model", "model:sims=100", "model:x.safetensors", "model:x.safetensors,name=n",
		"model:x.safetensors,level=", "model:x.safetensors,level=Medium", "model:x.safetensors,level=expert",
		"model:x.safetensors,level=1", "model:x.safetensors,level=Casual", "model:x.safetensors,level=9",
		"model:x.safetensors,sims=9,solver=maybe", "model:x.safetensors,sims=9,solver=OFF",
		"model:x.safetensors,sims=9,ptemp=0", "model:x.safetensors,sims=9,ptemp=NaN", "model:x.safetensors,sims=9,ptemp=1.0",
		"model:x.safetensors,sims=9,ptemp=1,ptemp=2", "model:x.safetensors,sims=9,board=6", "model:x.safetensors,sims=9,board=9", "model:x.safetensors,sims=9,board=7x6", "model:x.safetensors,sims=9,board=size-9", "model:x.safetensors,sims=9,depth=3", "model:x.safetensors,sims=9,c=1",
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
