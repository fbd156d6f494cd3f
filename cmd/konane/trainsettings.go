package main

import (
	"flag"
	"fmt"
	"math"
	"reflect"
	"strings"
	"time"

	"github.com/konanezero/konane/arena"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/selfplay"
)

// resumeRule says what a resumed run does with a setting.
type resumeRule int

const (
	// keep: the setting defines the run. A resumed run keeps the saved
	// value; a flag that would change it is refused, naming the setting
	// (selfplay.ResumeDiff, which trainSettingsAgree checks against
	// this column).
	keep resumeRule = iota
	// mayChange: saved with the run, but a resumed run may change it; the
	// saved value holds unless the flag is given.
	mayChange
	// session: this session only; the default holds unless the flag is
	// given, also when resuming.
	session
)

// trainSetting is one setting of "konane train": one row of trainSettings,
// from which the flags, their help, the resume check and the checks of
// their values are derived. A setting applies only when its flag is given;
// otherwise a new run takes the default of its board size
// (selfplay.DefaultConfig) and a resumed run its saved value (see
// resumeRule).
type trainSetting struct {
	flag string
	// field is where the setting lives in the saved configuration (a
	// pointer into c: *int, *uint64, *float64, *bool, *string,
	// *time.Duration or *arena.SPRT); nil for a setting of the session,
	// which option names instead (a pointer into o).
	field  func(c *selfplay.Config) any
	option func(o *trainOptions) any
	resume resumeRule
	help   string

	// choice names a boolean's values, true first ("on", "off"), instead
	// of a flag that takes no value.
	choice [2]string
	// min and max bound a number; want says so in the error ("0..10").
	min, max float64
	want     string
	// needs names a flag that must be given too.
	needs string
}

// trainOptions are the settings of one "konane train" session that are not
// part of the saved configuration.
type trainOptions struct {
	run      string
	selfplay bool
	resume   bool
	init     string
	board    boardFlag // --board (or --size)
	size     int       // board's size, or 8 when --board is not given; 0 for a multi-board run
	// boards is the board list of a multi-board run (--board with
	// several boards, a weight or a rectangle), nil for one square board.
	boards      []selfplay.BoardShare
	ladderEvery int
	// sims and fastSims set the playout cap through adaptSims.
	sims, fastSims int
}

var trainSettings = []trainSetting{
	{flag: "run", option: func(o *trainOptions) any { return &o.run }, resume: session,
		help: "run directory or URL (created if missing; resumed if it holds a run)"},
	{flag: "selfplay", option: func(o *trainOptions) any { return &o.selfplay }, resume: session,
		help: "play the self-play games here (false: train on the games of konane selfplay workers)"},
	{flag: "resume", option: func(o *trainOptions) any { return &o.resume }, resume: session,
		help: "require DIR to hold a run and continue it"},
	{flag: "init", option: func(o *trainOptions) any { return &o.init }, resume: session,
		help: "start a new run from this model's weights (and architecture, or deeper with --blocks) instead of random ones"},
	{flag: "board", option: func(o *trainOptions) any { return &o.board }, resume: keep,
		help: boardHelp("default 8x8; 6x6 and 8x8 have tuned defaults; train also takes a list of boards up to 16x16, each with an optional weight, for one network of them all (6x6,7x6,7x7,8x8:2,15x12)")},
	{flag: "seed", field: func(c *selfplay.Config) any { return &c.Seed }, resume: keep,
		help: "seed of every random choice of the run"},
	{flag: "generations", field: func(c *selfplay.Config) any { return &c.Generations }, resume: session,
		help: "stop after this many generations in all (0: no limit)"},
	{flag: "time", field: func(c *selfplay.Config) any { return &c.Duration }, resume: session,
		help: "stop after this much wall time in this session (0: no limit)"},
	{flag: "cpu-budget", field: func(c *selfplay.Config) any { return &c.CPUBudget }, resume: session,
		help: "stop at the first generation after which the run's own CPU time, all its sessions together (metrics.csv's cpu_secs), is at least this, e.g. 12h (0: no limit); with outside workers, the trainer's CPU alone"},
	{flag: "games-per-gen", field: func(c *selfplay.Config) any { return &c.GamesPerGen }, resume: keep,
		help: "self-play games per generation (fed by workers: at least this many, every new game it finds)"},
	{flag: "workers", field: func(c *selfplay.Config) any { return &c.Parallel }, resume: mayChange,
		help: "games in flight at once, feeding the batched evaluator"},
	{flag: "sims", option: func(o *trainOptions) any { return &o.sims }, resume: keep,
		help: "simulations of a full search (default 64)"},
	{flag: "fast-sims", option: func(o *trainOptions) any { return &o.fastSims }, resume: keep,
		help: "simulations of a cheap search under playout-cap randomization (default min(16, sims/4))"},
	{flag: "full-prob", field: func(c *selfplay.Config) any { return &c.Game.Cap.FullFraction }, resume: keep,
		help: "probability of a full search per move (1: no playout cap)"},
	{flag: "search", field: func(c *selfplay.Config) any { return &c.Game.MCTS.Gumbel }, resume: keep, choice: [2]string{"gumbel", "puct"},
		help: "root search: gumbel or puct"},
	{flag: "solver", field: func(c *selfplay.Config) any { return &c.Game.MCTS.Solver }, resume: keep, choice: [2]string{"on", "off"},
		help: "MCTS-Solver and the exact endgame solver in self-play's search: on or off"},
	{flag: "solve-nodes", field: func(c *selfplay.Config) any { return &c.Game.MCTS.SolveNodes }, resume: keep,
		help: "node budget of the endgame solver on a search leaf (0: no endgame solver)"},
	{flag: "solve-stones", field: func(c *selfplay.Config) any { return &c.Game.MCTS.SolveStones }, resume: keep,
		help: "the endgame solver tries leaves with at most this many stones"},
	{flag: "value-mix", field: func(c *selfplay.Config) any { return &c.Game.ValueMix }, resume: keep,
		help: "weight of the root search's value in the value target, beside the game's result (0..1)"},
	{flag: "rescore-stones", field: func(c *selfplay.Config) any { return &c.Game.RescoreStones }, resume: keep,
		help: "after each game, exact targets from the solver for every position with at most this many stones (0: none)"},
	{flag: "rescore-children", field: func(c *selfplay.Config) any { return &c.Game.RescoreChildren }, resume: keep,
		help: "for every position rescoring solves, up to this many of its children become value-only samples with their exact values (0: none)"},
	{flag: "rescore-child-policy", field: func(c *selfplay.Config) any { return &c.Game.RescoreChildPolicy }, resume: keep,
		help: "with --rescore-children: a child whose side to move wins also gets its winning moves as a policy target"},
	{flag: "random-plies", field: func(c *selfplay.Config) any { return &c.Game.RandomPlies }, resume: keep,
		help: "open each self-play game with 0 to this many random moves, which give no samples (0: none)"},
	{flag: "temperature", field: func(c *selfplay.Config) any { return &c.Game.Temperature.Final }, resume: keep, min: 0, max: 10, want: "0..10",
		help: "temperature of the move choice of a full search after the first size plies (which use 1): 0 plays the most visited move, 1 samples by visits"},
	{flag: "exact-values", field: func(c *selfplay.Config) any { return &c.Game.ExactValues }, resume: keep,
		help: "a position whose search proved its value gets that value as its target"},
	{flag: "filters", field: func(c *selfplay.Config) any { return &c.Net.Filters }, resume: keep,
		help: "network filters"},
	{flag: "blocks", field: func(c *selfplay.Config) any { return &c.Net.Blocks }, resume: keep,
		help: "network residual blocks"},
	{flag: "captures", field: func(c *selfplay.Config) any { return &c.Net.Captures }, resume: keep,
		help: "the network reads the capture input planes: the stones each side could capture and where its jumps land (with --init, a model without them gains them only if this is given)"},
	{flag: "aux-heads", field: func(c *selfplay.Config) any { return &c.Net.Aux }, resume: keep,
		help: "auxiliary heads trained beside the policy and the value: none, ownership (which squares hold a stone at the game's end), moves-left (plies until the end), or both, comma-separated"},
	{flag: "soft-policy", field: func(c *selfplay.Config) any { return &c.Net.SoftPolicy }, resume: keep,
		help: "train KataGo's soft policy head beside the policy: a second policy output on the search's target raised to the power 1/4 (training only; play reads the policy alone)"},
	{flag: "soft-policy-weight", field: func(c *selfplay.Config) any { return &c.Train.SoftPolicyWeight }, resume: keep, needs: "soft-policy", min: 0, max: 100, want: "0..100",
		help: "weight of the soft policy head's loss beside the policy's 1 (0: KataGo's 8)"},
	{flag: "surprise-weighting", field: func(c *selfplay.Config) any { return &c.SurpriseWeighting }, resume: keep,
		help: "KataGo's policy surprise weighting: each game shares out its weight among its searched positions, half evenly, half in proportion to how much the search's policy surprised the network (KL of the target from the priors), and training draws samples by weight"},
	{flag: "backend", field: func(c *selfplay.Config) any { return &c.Backend }, resume: keep,
		help: "the network's arithmetic in self-play: float32 (the same numbers on every CPU) or bf16 (CPUs with AVX512_BF16 only; faster, numbers of bfloat16 precision)"},
	{flag: "batch", field: func(c *selfplay.Config) any { return &c.Train.Batch }, resume: keep,
		help: "training batch"},
	{flag: "lr", field: func(c *selfplay.Config) any { return &c.Train.LR }, resume: keep,
		help: "a constant learning rate instead of the schedule (on a new run without --schedule)"},
	{flag: "schedule", field: func(c *selfplay.Config) any { return &c.Schedule }, resume: keep,
		help: `learning rate and rescored children by generation, "GEN:lr=X[,children=N];..." or "none" (see "konane help train")`},
	{flag: "reuse", field: func(c *selfplay.Config) any { return &c.ReuseRatio }, resume: keep,
		help: "times each new sample is drawn for training on average"},
	{flag: "gate-games", field: func(c *selfplay.Config) any { return &c.Gate.Games }, resume: keep,
		help: "gate each new model against the best one in up to this many games (0: no gating)"},
	{flag: "gate-sims", field: func(c *selfplay.Config) any { return &c.Gate.Sims }, resume: keep, needs: "gate-games",
		help: "simulations per move in gate games"},
	{flag: "gate-sprt", field: func(c *selfplay.Config) any { return &c.Gate.SPRT }, resume: keep, needs: "gate-games",
		help: "SPRT of the gate: elo0,elo1[,alpha,beta]"},
	{flag: "ladder-every", option: func(o *trainOptions) any { return &o.ladderEvery }, resume: session, min: 0, max: math.Inf(1), want: "0 (no ladder) or more",
		help: "rate every N-th generation on the Elo ladder while training (0: no ladder)"},
}

// trainFlagDefaults are the values the flags show as their defaults: an
// 8x8 run's, and a gate's when --gate-games asks for one.
func trainFlagDefaults() (selfplay.Config, trainOptions) {
	c := selfplay.DefaultConfig(8)
	c.Gate = selfplay.GateConfig{Sims: 32, SPRT: arena.SPRT{Elo0: 0, Elo1: 30, Alpha: arena.DefaultSPRTError, Beta: arena.DefaultSPRTError}}
	c.Net.Captures = net.DefaultConfig(0).Captures
	return c, trainOptions{selfplay: true, size: rules.DefaultSize}
}

// trainFlags holds what the command line of "konane train" gave: the
// values of every flag (given or default) and which were given.
type trainFlags struct {
	cfg  selfplay.Config
	opts trainOptions
	set  map[string]bool
}

// declareTrainFlags declares a flag for every row of trainSettings on fs,
// to be read into f.
func declareTrainFlags(fs *flag.FlagSet, f *trainFlags) {
	f.cfg, f.opts = trainFlagDefaults()
	for _, s := range trainSettings {
		p := s.ptr(&f.cfg, &f.opts)
		help := s.help + sizeDefaults(s)
		switch p := p.(type) {
		case *int:
			fs.IntVar(p, s.flag, *p, help)
		case *uint64:
			fs.Uint64Var(p, s.flag, *p, help)
		case *float64:
			fs.Float64Var(p, s.flag, *p, help)
		case *string:
			fs.StringVar(p, s.flag, *p, help)
		case *time.Duration:
			fs.DurationVar(p, s.flag, *p, help)
		case *arena.SPRT:
			fs.Var(sprtFlag{p}, s.flag, help)
		case *selfplay.Schedule:
			fs.Var(scheduleFlag{p}, s.flag, help)
		case *net.AuxHeads:
			fs.Var(p, s.flag, help)
		case *boardFlag:
			p.declare(fs, help) // --board and its alias --size
		case *bool:
			if s.choice[0] != "" {
				fs.Var(choiceFlag{p, s.choice}, s.flag, help)
			} else {
				fs.BoolVar(p, s.flag, *p, help)
			}
		default:
			panic(fmt.Sprintf("konane: train setting %s: field of type %T", s.flag, p))
		}
	}
}

// ptr is the setting's field in c or its option in o.
func (s trainSetting) ptr(c *selfplay.Config, o *trainOptions) any {
	if s.field != nil {
		return s.field(c)
	}
	return s.option(o)
}

// sizeDefaults is " (default 4x4..8x8: 16, 25, 26, 0, 0)" for a saved
// setting whose default depends on the board size, else "".
func sizeDefaults(s trainSetting) string {
	if s.field == nil {
		return ""
	}
	var vals []string
	differ := false
	for size := 4; size <= 8; size++ {
		c := selfplay.DefaultConfig(size)
		v := fmt.Sprint(reflect.ValueOf(s.field(&c)).Elem().Interface())
		differ = differ || len(vals) > 0 && v != vals[0]
		vals = append(vals, v)
	}
	if !differ {
		return ""
	}
	return " (default 4x4..8x8: " + strings.Join(vals, ", ") + ")"
}

// given returns the flags given on the command line (a flag given is a
// value, whatever it is: presence, not sentinels, asks for a default),
// after checking the values of those given.
func (f *trainFlags) given(fs *flag.FlagSet) (map[string]bool, error) {
	set := explicit(fs)
	for _, s := range trainSettings {
		if !set[s.flag] {
			continue
		}
		if s.want != "" {
			v := reflect.ValueOf(s.ptr(&f.cfg, &f.opts)).Elem()
			x := math.NaN()
			if v.CanInt() {
				x = float64(v.Int())
			} else if v.CanFloat() {
				x = v.Float()
			}
			if !(x >= s.min && x <= s.max) {
				return nil, usageError("train", "--%s %v: want %s", s.flag, v.Interface(), s.want)
			}
		}
	}
	for _, s := range trainSettings {
		if s.needs != "" && set[s.flag] && !set[s.needs] {
			return nil, usageError("train", "--%s needs --%s: give it too", s.flag, s.needs)
		}
	}
	return set, nil
}

// apply copies the given settings of the saved configuration from the
// flags into c, and the session settings not given from def.
func (f *trainFlags) apply(c *selfplay.Config, def selfplay.Config) {
	for _, s := range trainSettings {
		if s.field == nil {
			continue
		}
		from := &f.cfg
		switch {
		case f.set[s.flag]:
		case s.resume == session:
			from = &def
		default:
			continue
		}
		reflect.ValueOf(s.field(c)).Elem().Set(reflect.ValueOf(s.field(from)).Elem())
	}
}

// changed names the given flags of settings that a resumed run keeps and
// whose values differ from the saved configuration's.
func (f *trainFlags) changed(saved selfplay.Config) []string {
	var names []string
	for _, s := range trainSettings {
		if s.field == nil || s.resume != keep || !f.set[s.flag] {
			continue
		}
		if !reflect.DeepEqual(reflect.ValueOf(s.field(&saved)).Elem().Interface(), reflect.ValueOf(s.field(&f.cfg)).Elem().Interface()) {
			names = append(names, "--"+s.flag)
		}
	}
	return names
}

// choiceFlag is a boolean flag whose values are two words, true first.
type choiceFlag struct {
	p     *bool
	names [2]string
}

func (f choiceFlag) String() string {
	if f.p == nil || *f.p {
		return f.names[0]
	}
	return f.names[1]
}

func (f choiceFlag) Set(s string) error {
	switch s {
	case f.names[0]:
		*f.p = true
	case f.names[1]:
		*f.p = false
	default:
		return fmt.Errorf("want %s or %s", f.names[0], f.names[1])
	}
	return nil
}

// sprtFlag is an SPRT flag: elo0,elo1[,alpha,beta].
type sprtFlag struct{ p *arena.SPRT }

func (f sprtFlag) String() string {
	if f.p == nil {
		return ""
	}
	return fmt.Sprintf("%g,%g", f.p.Elo0, f.p.Elo1)
}

func (f sprtFlag) Set(s string) error {
	v, err := arena.ParseSPRT(s)
	if err != nil {
		return err
	}
	*f.p = v
	return nil
}

// scheduleFlag is a schedule flag, as selfplay.ParseSchedule reads it.
type scheduleFlag struct{ p *selfplay.Schedule }

func (f scheduleFlag) String() string {
	if f.p == nil {
		return ""
	}
	return f.p.String()
}

func (f scheduleFlag) Set(s string) error {
	v, err := selfplay.ParseSchedule(s)
	if err != nil {
		return err
	}
	*f.p = v
	return nil
}
