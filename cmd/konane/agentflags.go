package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/player"
)

// agentFlags are the flags that play, serve and gtp share to choose the
// model and how strongly it plays.
type agentFlags struct {
	level string
	sims  int
	time  time.Duration
	model string
	seed  uint64
}

// declare adds the flags to fs.
func (f *agentFlags) declare(fs *flag.FlagSet) {
	fs.StringVar(&f.level, "level", agent.DefaultLevel, "difficulty: "+levelHelp())
	fs.IntVar(&f.sims, "sims", 0, "search simulations per move (replaces the level's)")
	fs.DurationVar(&f.time, "time", 0, "thinking time per move, like 500ms or 2s (with --sims or --level: whichever ends first)")
	fs.StringVar(&f.model, "model", "", "model file to play with instead of the shipped one (its board size is then the only one)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the agent's choices (the same seed gives the same games)")
}

// strength checks the flags (parsed by fs) and returns the strength they
// ask for: the level's simulations, or --sims instead, or --time alone
// when only it is given; an explicit --level with --time gives the
// level's simulations or the time, whichever ends first. --level and
// --sims given together conflict.
func (f *agentFlags) strength(cmd string, fs *flag.FlagSet) (player.Limits, error) {
	set := explicit(fs)
	sims := f.sims
	if set["level"] {
		l, err := agent.ParseLevel(f.level)
		if err != nil {
			return player.Limits{}, fmt.Errorf("%s: %w", cmd, err)
		}
		if set["sims"] {
			return player.Limits{}, usageError(cmd, "--sims %d and --level %s both set the simulations per move: give one of them", f.sims, f.level)
		}
		sims = l.Sims
	}
	s, err := agent.NewLimits(f.level, sims, f.time)
	if err != nil {
		return player.Limits{}, limitsFlagError(cmd, err)
	}
	return s, nil
}

// checkLimits checks the limits that --sims and --time give (both 0:
// the command's default) with Limits.Validate, its error worded for the
// flags.
func checkLimits(cmd string, l player.Limits) error {
	if l.Sims == 0 && l.Time == 0 {
		return nil
	}
	return limitsFlagError(cmd, l.Validate())
}

// limitsFlagError words an error of Limits.Validate for the flags --sims
// and --time; other errors it prefixes with cmd; nil stays nil.
func limitsFlagError(cmd string, err error) error {
	var le *player.LimitsError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &le) && le.Field == "sims":
		return usageError(cmd, "--sims %d: want 1..%d", le.Limits.Sims, player.MaxSims)
	case errors.As(err, &le) && le.Field == "time":
		return usageError(cmd, "--time %v: want a positive duration up to %v", le.Limits.Time, player.MaxTime)
	}
	return fmt.Errorf("%s: %w", cmd, err)
}

// levelHelp lists the levels: "easy (16 simulations), medium (512), ...".
func levelHelp() string {
	var parts []string
	for i, l := range agent.Levels() {
		if i == 0 {
			parts = append(parts, fmt.Sprintf("%s (%d simulations per move)", l.Name, l.Sims))
		} else {
			parts = append(parts, fmt.Sprintf("%s (%d)", l.Name, l.Sims))
		}
	}
	return strings.Join(parts, ", ") + fmt.Sprintf("; on boards up to %dx%d every level plays perfectly (those games are solved exactly)", agent.MaxSolverSize, agent.MaxSolverSize)
}

// classicalLevels lists the classical engine's time per move at each
// level, from the level table: "easy 50ms, medium 300ms, ...".
func classicalLevels() string {
	var parts []string
	for _, l := range agent.Levels() {
		parts = append(parts, fmt.Sprintf("%s %v", l.Name, l.PVSTime))
	}
	return strings.Join(parts, ", ")
}
