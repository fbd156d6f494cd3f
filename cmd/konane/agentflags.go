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

// levelHelp lists the levels: "1 newcomer (1 simulation per move, drawn
// at random from the network's policy), ..., 8 max (8192)".
func levelHelp() string {
	var parts []string
	for i, l := range agent.Levels() {
		sims := fmt.Sprint(l.Sims)
		if i == 0 {
			sims = fmt.Sprintf("%d simulations per move", l.Sims)
			if l.Sims == 1 {
				sims = "1 simulation per move"
			}
		}
		if l.Temp > 0 {
			sims += ", drawn"
		}
		parts = append(parts, fmt.Sprintf("%d %s (%s)", l.Number, l.Name, sims))
	}
	return strings.Join(parts, ", ") + fmt.Sprintf("; a number or a name. The drawn levels pick among the network's likely moves at random; on boards up to %dx%d, solved exactly, only %s play perfectly, and the others, there and where the classical engine plays, make that share of random moves: %s", agent.MaxSolverSize, agent.MaxSolverSize, perfectLevels(), noiseLevels())
}

// perfectLevels names the levels that play perfectly on the solver's
// boards: "hard and max".
func perfectLevels() string {
	var names []string
	for _, l := range agent.Levels() {
		if l.Perfect() {
			names = append(names, l.Name)
		}
	}
	return andList(names)
}

// noiseLevels gives the weak levels' share of random moves where no
// network plays: "newcomer 50%, beginner 35%, ...".
func noiseLevels() string {
	var parts []string
	for _, l := range agent.Levels() {
		if !l.Perfect() {
			parts = append(parts, fmt.Sprintf("%s %.0f%%", l.Name, 100*l.Noise))
		}
	}
	return strings.Join(parts, ", ")
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
