package agent

import (
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/net/nettest"
	"github.com/konanezero/konane/player"
)

func TestParseLevel(t *testing.T) {
	for _, tc := range []struct {
		name string
		sims int
	}{{"easy", 16}, {"medium", 512}, {"HARD", 2048}, {" max ", 8192}} {
		l, err := ParseLevel(tc.name)
		if err != nil || l.Sims != tc.sims {
			t.Errorf("ParseLevel(%q) = %+v, %v; want %d simulations", tc.name, l, err, tc.sims)
		}
	}
	_, err := ParseLevel("expert")
	if err == nil || !strings.Contains(err.Error(), `"expert"`) || !strings.Contains(err.Error(), "easy, medium, hard, max") {
		t.Errorf("ParseLevel(expert): %v; want the name and the levels", err)
	}
	if _, err := ParseLevel(DefaultLevel); err != nil {
		t.Errorf("the default level %q is not in the table: %v", DefaultLevel, err)
	}
	for i := 1; i < len(levels); i++ {
		if levels[i].Sims <= levels[i-1].Sims {
			t.Errorf("level %s is not stronger than %s", levels[i].Name, levels[i-1].Name)
		}
	}
}

func TestNewLimits(t *testing.T) {
	for _, tc := range []struct {
		level string
		sims  int
		time  time.Duration
		want  player.Limits
		text  string
	}{
		{"", 0, 0, player.Limits{Sims: 512}, "512 simulations per move"},
		{"easy", 0, 0, player.Limits{Sims: 16, NoSolver: true}, "16 simulations per move, without the solver"},
		{"easy", 40, 0, player.Limits{Sims: 40, NoSolver: true}, "40 simulations per move, without the solver"},
		{"max", 100, 0, player.Limits{Sims: 100}, "100 simulations per move"},
		{"hard", 0, time.Second, player.Limits{Time: time.Second}, "1s per move"},
		{"hard", 300, 2 * time.Second, player.Limits{Sims: 300, Time: 2 * time.Second}, "300 simulations or 2s per move"},
	} {
		s, err := NewLimits(tc.level, tc.sims, tc.time)
		if err != nil || s != tc.want || s.String() != tc.text {
			t.Errorf("NewLimits(%q, %d, %v) = %+v %q, %v; want %+v %q", tc.level, tc.sims, tc.time, s, s, err, tc.want, tc.text)
		}
		if err := s.Validate(); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	}
	for _, tc := range []struct {
		level string
		sims  int
		time  time.Duration
		want  string
	}{
		{"silly", 0, 0, "unknown level"},
		{"easy", -1, 0, "-1 simulations"},
		{"easy", player.MaxSims + 1, 0, "simulations"},
		{"easy", 0, -time.Second, "time per move"},
		{"easy", 0, time.Hour, "time per move"},
	} {
		if _, err := NewLimits(tc.level, tc.sims, tc.time); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewLimits(%q, %d, %v): %v; want an error about %q", tc.level, tc.sims, tc.time, err, tc.want)
		}
	}
	if err := (player.Limits{}).Validate(); err == nil {
		t.Error("a strength without limits validates")
	}
}

// TestSpecLimits: a model spec's level, sims, time and solver settings
// combine as the commands' flags do.
func TestSpecLimits(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want player.Limits
	}{
		{"model:m,sims=200", player.Limits{Sims: 200}},
		{"model:m,sims=200,solver=off", player.Limits{Sims: 200, NoSolver: true}},
		{"model:m,level=medium", player.Limits{Sims: 512}},
		{"model:m,level=easy", player.Limits{Sims: 16, NoSolver: true}},
		{"model:m,level=easy,solver=on", player.Limits{Sims: 16}},
		{"model:m,level=hard,solver=off", player.Limits{Sims: 2048, NoSolver: true}},
		{"model:m,level=hard,time=1s", player.Limits{Time: time.Second}},
		{"model:m,time=1s", player.Limits{Time: time.Second}},
	} {
		s, err := ParseSpec(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		got, err := specLimits(s)
		if err != nil || got != tc.want {
			t.Errorf("%s: %+v, %v; want %+v", tc.spec, got, err, tc.want)
		}
	}
	s, err := ParseSpec("model:m,level=expert")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := specLimits(s); err == nil || !strings.Contains(err.Error(), "expert") {
		t.Errorf("level=expert: %v", err)
	}
}

// TestAgentPolicyTemp: the agent of play, serve and gtp searches with the
// policy temperature of its board size, for its moves and its advice.
func TestAgentPolicyTemp(t *testing.T) {
	for _, size := range []int{6, 8} {
		e, err := NewEngine(nettest.TinyModel(t, size, 1))
		if err != nil {
			t.Fatal(err)
		}
		a, err := e.NewAgent(1)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []searcher{a.play, a.advise} {
			n := s.(*player.Neural)
			if got := n.Config().PolicyTemp; got != PolicyTemp(size) {
				t.Errorf("%dx%d: the agent searches at policy temperature %v, want %v", size, size, got, PolicyTemp(size))
			}
		}
	}
}
