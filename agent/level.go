package agent

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Level is a named difficulty: the number of search simulations per move.
type Level struct {
	Name string
	Sims int
}

// levels is the one table of difficulties that play, serve and gtp offer,
// weakest first. Each level searches four times as much as the one below.
var levels = []Level{
	{"easy", 16},
	{"medium", 64},
	{"hard", 256},
	{"max", 1024},
}

// DefaultLevel is the level used when none is chosen.
const DefaultLevel = "medium"

// Levels returns the difficulty levels, weakest first.
func Levels() []Level { return append([]Level(nil), levels...) }

// LevelNames returns the names of the levels, weakest first.
func LevelNames() []string {
	names := make([]string, len(levels))
	for i, l := range levels {
		names[i] = l.Name
	}
	return names
}

// ParseLevel returns the level of that name (case does not matter).
func ParseLevel(name string) (Level, error) {
	for _, l := range levels {
		if strings.EqualFold(strings.TrimSpace(name), l.Name) {
			return l, nil
		}
	}
	return Level{}, fmt.Errorf("agent: unknown level %q (want %s)", name, strings.Join(LevelNames(), ", "))
}

// MaxSims bounds the simulations of one move.
const MaxSims = 1 << 20

// MaxTime bounds the thinking time of one move.
const MaxTime = 10 * time.Minute

// Strength is how long the agent thinks about a move: Sims simulations,
// or Time, whichever ends first when both are set (0 = no such limit;
// at least one is set).
type Strength struct {
	Sims int
	Time time.Duration
}

// NewStrength combines the usual command-line settings: a level name
// gives the simulations, a positive sims replaces them, and a positive
// moveTime limits the time per move (without sims, time alone then
// decides, whatever the level).
func NewStrength(level string, sims int, moveTime time.Duration) (Strength, error) {
	if sims < 0 || sims > MaxSims {
		return Strength{}, fmt.Errorf("agent: %d simulations: want 1..%d", sims, MaxSims)
	}
	if moveTime < 0 || moveTime > MaxTime {
		return Strength{}, fmt.Errorf("agent: time per move %v: want a positive duration up to %v", moveTime, MaxTime)
	}
	if level == "" {
		level = DefaultLevel
	}
	l, err := ParseLevel(level)
	if err != nil {
		return Strength{}, err
	}
	s := Strength{Sims: l.Sims, Time: moveTime}
	switch {
	case sims > 0:
		s.Sims = sims
	case moveTime > 0:
		s.Sims = 0
	}
	return s, nil
}

// Validate reports a strength without any limit or out of range.
func (s Strength) Validate() error {
	switch {
	case s.Sims <= 0 && s.Time <= 0:
		return errors.New("agent: set simulations or time per move")
	case s.Sims < 0 || s.Sims > MaxSims:
		return fmt.Errorf("agent: %d simulations: want 1..%d", s.Sims, MaxSims)
	case s.Time < 0 || s.Time > MaxTime:
		return fmt.Errorf("agent: time per move %v: want up to %v", s.Time, MaxTime)
	}
	return nil
}

// String describes the strength for people: "64 simulations per move",
// "2s per move", "200 simulations or 2s per move".
func (s Strength) String() string {
	switch {
	case s.Sims > 0 && s.Time > 0:
		return fmt.Sprintf("%d simulations or %v per move", s.Sims, s.Time)
	case s.Time > 0:
		return fmt.Sprintf("%v per move", s.Time)
	}
	return fmt.Sprintf("%d simulations per move", s.Sims)
}
