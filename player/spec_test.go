package player

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		text string
		want Spec
	}{
		{"random", Spec{Kind: KindRandom, Name: "random"}},
		{" Greedy ", Spec{Kind: KindGreedy, Name: "Greedy"}},
		{"alphabeta", Spec{Kind: KindAlphaBeta, Name: "alphabeta", Depth: DefaultDepth}},
		{"alphabeta:depth=6", Spec{Kind: KindAlphaBeta, Name: "alphabeta:depth=6", Depth: 6}},
		{"alphabeta:time=250ms,name=ab", Spec{Kind: KindAlphaBeta, Name: "ab", Time: 250 * time.Millisecond}},
		{"alphabeta:depth=3,time=1s", Spec{Kind: KindAlphaBeta, Name: "alphabeta:depth=3,time=1s", Depth: 3, Time: time.Second}},
		{"pvs", Spec{Kind: KindPVS, Name: "pvs", Depth: DefaultDepth}},
		{"pvs:time=1s,eval=mob,lmr=off", Spec{Kind: KindPVS, Name: "pvs:time=1s,eval=mob,lmr=off", Time: time.Second, Eval: "mob", NoLMR: true}},
		{"pvs:depth=9,eval=4/4/1/0", Spec{Kind: KindPVS, Name: "pvs:depth=9,eval=4/4/1/0", Depth: 9, Eval: "4/4/1/0"}},
		{"mcts:sims=500,c=0.7", Spec{Kind: KindMCTS, Name: "mcts:sims=500,c=0.7", Sims: 500, C: 0.7}},
		{"perfect:name=oracle", Spec{Kind: KindPerfect, Name: "oracle"}},
		{"perfect:maxstones=20", Spec{Kind: KindPerfect, Name: "perfect:maxstones=20", MaxStones: 20}},
		{"model:models/x.safetensors,sims=200", Spec{Kind: KindModel, Name: "model:models/x.safetensors,sims=200", Model: "models/x.safetensors", Sims: 200}},
		{"model:runs/a/gen3.safetensors, time=1s, name=gen3", Spec{Kind: KindModel, Name: "gen3", Model: "runs/a/gen3.safetensors", Time: time.Second}},
	}
	for _, tt := range tests {
		got, err := ParseSpec(tt.text)
		if err != nil {
			t.Errorf("ParseSpec(%q): %v", tt.text, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseSpec(%q) = %+v, want %+v", tt.text, got, tt.want)
		}
	}
}

func TestParseSpecErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{"", "empty"},
		{"minimax:depth=3", `unknown player kind "minimax"`},
		{"alphabeta:dpth=3", `unknown setting "dpth" for alphabeta (want depth, time, name)`},
		{"alphabeta:depth=x", `depth="x": want a whole number of plies`},
		{"alphabeta:depth=0", `depth="0"`},
		{"alphabeta:depth=3,depth=4", `"depth" given twice`},
		{"pvs:eval=3/2", `eval="3/2": want mob, full, or four or six integers`},
		{"pvs:lmr=maybe", `lmr="maybe": want on or off`},
		{"alphabeta:time=fast", `time="fast": want a positive duration`},
		{"alphabeta:depth", `setting "depth": want key=value`},
		{"random:sims=3", `unknown setting "sims" for random`},
		{"mcts:sims=-1", `sims="-1": want a whole number ≥ 1`},
		{"mcts:c=0", `c="0"`},
		{"model", "model needs a model file first"},
		{"model:sims=100", "model needs a model file first"},
		{"model:x.safetensors", "model needs sims=N or time=D"},
		// Package agent declares level, solver and ptemp (agent/testdata/specs.golden).
		{"model:x.safetensors,sims=9,level=easy", `unknown setting "level" for model (want sims, time, name, file)`},
		{"greedy:name=", "empty name"},
		{"perfect:maxstones=1", `maxstones="1": want a whole number of stones 2..64`},
	}
	for _, tt := range tests {
		_, err := ParseSpec(tt.text)
		if err == nil {
			t.Errorf("ParseSpec(%q): no error, want %q", tt.text, tt.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), "player: spec ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseSpec(%q) error %q, want it to contain %q", tt.text, err, tt.want)
		}
	}
}

// TestKindsWith: a kind given by another package (Kinds.With) reads its
// own settings in its order, checked by its Set, kept in Settings and
// checked as a whole by its Finish; DefaultKinds and the other kinds are
// unchanged.
func TestKindsWith(t *testing.T) {
	kinds := DefaultKinds.With(Kind{
		Name: KindModel,
		Keys: []string{"colour", "sims", "time", "name", "file"},
		Set: func(key, value string) (string, error) {
			if value != "red" && value != "blue" {
				return "", errors.New("want red or blue")
			}
			return strings.ToUpper(value), nil
		},
		Finish: func(s *Spec) error {
			if s.Settings["colour"] == "" {
				return errors.New("model needs a colour")
			}
			return nil
		},
	})
	if len(kinds) != len(DefaultKinds) {
		t.Fatalf("With added a kind of a known name: %d kinds, want %d", len(kinds), len(DefaultKinds))
	}
	s, err := kinds.Parse("model:m.safetensors,colour=red")
	if want := (Spec{Kind: KindModel, Name: "model:m.safetensors,colour=red", Model: "m.safetensors", Settings: map[string]string{"colour": "RED"}}); err != nil || !reflect.DeepEqual(s, want) {
		t.Errorf("Parse: %+v, %v; want %+v", s, err, want)
	}
	for text, want := range map[string]string{
		"model:m.safetensors,sims=3":                 "model needs a colour",
		"model:m.safetensors,colour=green":           `setting colour="green": want red or blue`,
		"model:m.safetensors,colour=red,colour=blue": `setting "colour" given twice`,
		"model:m.safetensors,colour=red,depth=3":     `unknown setting "depth" for model (want colour, sims, time, name, file)`,
		"alphabeta:colour=red":                       `unknown setting "colour" for alphabeta (want depth, time, name)`,
	} {
		if _, err := kinds.Parse(text); err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("Parse(%q): %v; want %q", text, err, want)
		}
	}
	if _, err := ParseSpec("model:m.safetensors,colour=red"); err == nil {
		t.Error("DefaultKinds changed by With")
	}
	// A new kind is one value: parsed and made from it alone.
	kinds = kinds.With(Kind{Name: "first", Keys: []string{"name"}, New: func(s Spec, seed uint64) (Player, error) {
		return NewGreedy(seed), nil
	}})
	s, err = kinds.Parse("first:name=f")
	if err != nil || s.Kind != "first" || s.Name != "f" {
		t.Fatalf("Parse(first:name=f) = %+v, %v", s, err)
	}
	f, err := kinds.NewFactory(s)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := f.New(1); err != nil || p == nil {
		t.Errorf("New: %v, %v", p, err)
	}
	// A key without a Spec field and no Set is an error, not a panic.
	kinds = kinds.With(Kind{Name: "broken", Keys: []string{"colour", "name"}})
	if _, err := kinds.Parse("broken:colour=red"); err == nil || !strings.Contains(err.Error(), "no Set") {
		t.Errorf("Parse(broken:colour=red): %v; want an error naming the missing Set", err)
	}
}

func TestFactoryNames(t *testing.T) {
	for _, text := range []string{"random", "greedy:name=g", "alphabeta:depth=2", "mcts:sims=10,name=uct"} {
		s, f := mustSpec(t, text), mustFactory(t, text)
		p, err := f.New(1)
		if err != nil {
			t.Fatal(err)
		}
		if p.Name() != s.Name || f.Name() != s.Name {
			t.Errorf("%s: player name %q, factory %q, want %q", text, p.Name(), f.Name(), s.Name)
		}
	}
}

// FuzzParseSpec: no spec text makes ParseSpec panic, and file=PATH, last,
// carries any path (without surrounding blanks, which the spec trims).
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"random", "alphabeta:depth=3,time=1s", "model:x.safetensors,sims=2", "runs/a,b/m.safetensors", "lr=0.1,file=x", "m 1.safetensors", ",", "file="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ParseSpec(text)
		path := strings.TrimSpace(text)
		if path == "" {
			return
		}
		s, err := ParseSpec("model:sims=3,file=" + path)
		if err != nil || s.Model != path || s.Sims != 3 {
			t.Errorf("file=%q: %+v, %v", path, s, err)
		}
	})
}
