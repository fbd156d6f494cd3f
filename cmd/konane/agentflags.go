package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/konanezero/konane/agent"
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
	fs.DurationVar(&f.time, "time", 0, "thinking time per move, like 500ms or 2s (with --sims: whichever ends first)")
	fs.StringVar(&f.model, "model", "", "model file to play with instead of the shipped one (its board size is then the only one)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the agent's choices (the same seed gives the same games)")
}

// strength checks the flags and returns the strength they ask for.
func (f *agentFlags) strength(cmd string) (agent.Strength, error) {
	if f.sims < 0 {
		return agent.Strength{}, usageError(cmd, "--sims %d: want at least 1", f.sims)
	}
	if f.time < 0 {
		return agent.Strength{}, usageError(cmd, "--time %v: want a positive duration", f.time)
	}
	s, err := agent.NewStrength(f.level, f.sims, f.time)
	if err != nil {
		return agent.Strength{}, fmt.Errorf("%s: %w", cmd, err)
	}
	return s, nil
}

// levelHelp lists the levels: "easy (16 simulations), medium (64), ...".
func levelHelp() string {
	var parts []string
	for i, l := range agent.Levels() {
		if i == 0 {
			parts = append(parts, fmt.Sprintf("%s (%d simulations per move)", l.Name, l.Sims))
		} else {
			parts = append(parts, fmt.Sprintf("%s (%d)", l.Name, l.Sims))
		}
	}
	return strings.Join(parts, ", ")
}
