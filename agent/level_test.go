package agent

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/net/nettest"
	"github.com/konanezero/konane/player"
)

func TestParseLevel(t *testing.T) {
	for _, tc := range []struct {
		name string
		num  int
	}{{"easy", 4}, {"medium", 6}, {"HARD", 7}, {" max ", 8}, {"1", 1}, {" 8", 8}, {"Newcomer", 1}, {"steady", 5}} {
		l, err := ParseLevel(tc.name)
		if err != nil || l.Number != tc.num {
			t.Errorf("ParseLevel(%q) = %+v, %v; want level %d", tc.name, l, err, tc.num)
		}
	}
	for _, bad := range []string{"expert", "0", "9", "-1", "", "4.0"} {
		_, err := ParseLevel(bad)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%q", bad)) || !strings.Contains(err.Error(), "1..8") || !strings.Contains(err.Error(), "newcomer, beginner, casual, easy, steady, medium, hard, max") {
			t.Errorf("ParseLevel(%q): %v; want the name and the levels", bad, err)
		}
	}
	if _, err := ParseLevel(DefaultLevel); err != nil {
		t.Errorf("the default level %q is not in the table: %v", DefaultLevel, err)
	}
}

// TestLevelTable: the ladder is numbered 1.. in order and grows
// stronger on every board; the four levels of before keep their moves
// on a network's board (their simulations, solver, and no draw); only
// the top levels play perfectly where the solver plays; every level's
// limits are valid.
func TestLevelTable(t *testing.T) {
	old := map[string]player.Limits{
		"easy":   {Sims: 16, NoSolver: true},
		"medium": {Sims: 512},
		"hard":   {Sims: 2048},
		"max":    {Sims: 8192},
	}
	for i, l := range levels {
		if l.Number != i+1 {
			t.Errorf("level %s is number %d at place %d", l.Name, l.Number, i+1)
		}
		if err := l.Limits().Validate(); err != nil {
			t.Errorf("level %s: %v", l.Name, err)
		}
		if want, ok := old[l.Name]; ok {
			got := l.Limits()
			got.Noise = 0 // the solver's and pvs's, not a network's
			if got != want {
				t.Errorf("level %s plays %+v on a network's board, want %+v as before", l.Name, got, want)
			}
			delete(old, l.Name)
		}
		if i == 0 {
			continue
		}
		p := levels[i-1]
		switch {
		case l.Sims < p.Sims, l.Solver != p.Solver && !l.Solver:
			t.Errorf("level %s searches less than %s", l.Name, p.Name)
		case l.Sims == p.Sims && !(l.Temp < p.Temp):
			t.Errorf("level %s draws no cooler than %s with as many simulations", l.Name, p.Name)
		case l.Noise > p.Noise || l.Noise == p.Noise && l.Noise > 0:
			t.Errorf("level %s slips no less than %s", l.Name, p.Name)
		case l.PVSTime <= p.PVSTime:
			t.Errorf("level %s gives pvs no more time than %s", l.Name, p.Name)
		case (l.Temp > 0) != (l.Noise > 0) && l.Temp > 0:
			t.Errorf("level %s draws on a network's board but plays perfectly elsewhere", l.Name)
		}
	}
	if len(old) > 0 {
		t.Errorf("levels missing: %v", old)
	}
	top := levels[len(levels)-1]
	if !top.Perfect() || levels[0].Perfect() || top.Name != "max" {
		t.Errorf("the top level %s is perfect %v, the first %v: want max, perfect, and a first that is not", top.Name, top.Perfect(), levels[0].Perfect())
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
		{"", 0, 0, player.Limits{Sims: 512, Choice: player.Choice{Noise: 0.05}}, "512 simulations per move"},
		{"easy", 0, 0, player.Limits{Sims: 16, NoSolver: true, Choice: player.Choice{Noise: 0.15}}, "16 simulations per move, without the solver"},
		{"easy", 40, 0, player.Limits{Sims: 40, NoSolver: true, Choice: player.Choice{Noise: 0.15}}, "40 simulations per move, without the solver"},
		{"1", 0, 0, player.Limits{Sims: 1, NoSolver: true, Choice: player.Choice{Temp: 2, TopK: 16, Noise: 0.5}}, "1 simulations per move, without the solver, drawn at temperature 2 among the top 16"},
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
		{"model:m,level=medium", player.Limits{Sims: 512, Choice: player.Choice{Noise: 0.05}}},
		{"model:m,level=easy", player.Limits{Sims: 16, NoSolver: true, Choice: player.Choice{Noise: 0.15}}},
		{"model:m,level=easy,solver=on", player.Limits{Sims: 16, Choice: player.Choice{Noise: 0.15}}},
		{"model:m,level=2", player.Limits{Sims: 1, NoSolver: true, Choice: player.Choice{Temp: 1, TopK: 8, Noise: 0.35}}},
		{"model:m,level=hard,solver=off", player.Limits{Sims: 2048, NoSolver: true}},
		{"model:m,level=hard,time=1s", player.Limits{Time: time.Second}},
		{"model:m,level=steady,time=1s", player.Limits{Time: time.Second, Choice: player.Choice{Noise: 0.1}}},
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

// TestAdviceLimits: a hint or an evaluation searches at least as much
// as medium, with the solver and without a draw, at every level; more
// when the level searches more; a time limit alone stays.
func TestAdviceLimits(t *testing.T) {
	medium, err := ParseLevel(AdviceLevel)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range levels {
		got := AdviceLimits(l.Limits())
		want := player.Limits{Sims: max(l.Sims, medium.Sims)}
		if got != want {
			t.Errorf("level %s: advice within %+v, want %+v", l.Name, got, want)
		}
	}
	if got := AdviceLimits(player.Limits{Time: time.Second, Choice: player.Choice{Temp: 1}}); got != (player.Limits{Time: time.Second}) {
		t.Errorf("advice for a time limit: %+v", got)
	}
}

// TestPerfectionOn: on 4x4 and 5x5 the levels without noise play
// perfectly and the others do not; on 6x6 steady and the levels above
// play the solver's moves from early on; on 7x7 and 8x8 no level is said
// to be perfect.
func TestPerfectionOn(t *testing.T) {
	want := map[int]map[string]Perfection{
		4: {"newcomer": Imperfect, "medium": Imperfect, "hard": PerfectAlways, "max": PerfectAlways},
		5: {"easy": Imperfect, "hard": PerfectAlways, "max": PerfectAlways},
		6: {"newcomer": Imperfect, "easy": Imperfect, "steady": PerfectEarly, "medium": PerfectEarly, "hard": PerfectEarly, "max": PerfectEarly},
		7: {"steady": Imperfect, "max": Imperfect},
		8: {"hard": Imperfect, "max": Imperfect},
	}
	for size, levels := range want {
		for name, w := range levels {
			l, err := ParseLevel(name)
			if err != nil {
				t.Fatal(err)
			}
			if got := l.PerfectionOn(size); got != w {
				t.Errorf("%s on %dx%d: %q, want %q", name, size, size, got, w)
			}
		}
	}
}
