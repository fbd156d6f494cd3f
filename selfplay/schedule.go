package selfplay

import (
	"fmt"
	"strconv"
	"strings"
)

// A Schedule is what changes over a run, by generation: the learning rate
// and the children that rescoring adds (GameConfig.RescoreChildren). It
// is fixed when the run is created and saved in config.json with the rest
// of the run's identity, so a run resumed or replayed with the same seed
// follows it exactly; it never depends on wall time.
//
// Stages are in increasing order of From and the first starts at
// generation 1. An empty schedule (a config.json without one, as every
// run made before schedules) keeps Config.Train.LR and
// Game.RescoreChildren for the whole run.
type Schedule []Stage

// Stage is a part of a Schedule: from generation From until the next
// stage, the trainer's learning rate (after the warm-up, see
// net.TrainOptions) is LR and rescoring adds RescoreChildren children of
// each position it solves.
type Stage struct {
	From            int     `json:"from"`
	LR              float64 `json:"lr"`
	RescoreChildren int     `json:"rescore_children,omitempty"`
}

// DefaultSchedule is the schedule of `konane train` for a board size: the
// learning-rate stages and child rescoring of the runs the shipped models
// were chained from by hand (scripts/reproduce-shipped.sh), in one run.
//
// 6x6 (and the smaller sizes): the shipped model's five runs trained 587
// generations at 0.02, 310 at 0.002, 479 at 0.002 with two children per
// solved position, then 0.0005 with them (its generation 102 shipped).
//
// 7x7 and 8x8: the shipped 8x8 model trained 331 generations at 0.02 (65
// + 266, in two runs) and no more; the stages after it are the 6x6
// recipe's, scaled to that length (0.002 for 445 generations, then
// 0.0005). Not measured on 8x8 yet. No children: rescoring is off there.
func DefaultSchedule(size int) Schedule {
	if size <= 6 {
		return Schedule{
			{From: 1, LR: 0.02},
			{From: 588, LR: 0.002},
			{From: 898, LR: 0.002, RescoreChildren: 2},
			{From: 1377, LR: 0.0005, RescoreChildren: 2},
		}
	}
	return Schedule{
		{From: 1, LR: 0.02},
		{From: 332, LR: 0.002},
		{From: 777, LR: 0.0005},
	}
}

// At returns the stage in force at generation gen (≥ 1); ok is false for
// an empty schedule.
func (s Schedule) At(gen int) (st Stage, ok bool) {
	for _, x := range s {
		if x.From > gen {
			break
		}
		st, ok = x, true
	}
	return st, ok
}

// Validate reports the first stage out of order or out of range.
func (s Schedule) Validate() error {
	for i, x := range s {
		switch {
		case i == 0 && x.From != 1:
			return fmt.Errorf("selfplay: schedule %s: the first stage starts at generation %d, want 1", s, x.From)
		case i > 0 && x.From <= s[i-1].From:
			return fmt.Errorf("selfplay: schedule %s: stages not in increasing order of generation", s)
		case !(x.LR > 0 && x.LR < 10):
			return fmt.Errorf("selfplay: schedule %s: learning rate %v outside (0, 10)", s, x.LR)
		case x.RescoreChildren < 0:
			return fmt.Errorf("selfplay: schedule %s: negative rescore children %d", s, x.RescoreChildren)
		}
	}
	return nil
}

// String writes the schedule as ParseSchedule reads it, "none" when empty.
func (s Schedule) String() string {
	if len(s) == 0 {
		return "none"
	}
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = fmt.Sprintf("%d:lr=%s", x.From, strconv.FormatFloat(x.LR, 'g', -1, 64))
		if x.RescoreChildren > 0 {
			parts[i] += fmt.Sprintf(",children=%d", x.RescoreChildren)
		}
	}
	return strings.Join(parts, ";")
}

// ParseSchedule reads a schedule written as stages separated by ";", each
// "GEN:lr=X[,children=N]" (children 0 when left out), or "none" for the
// empty schedule: "1:lr=0.02;588:lr=0.002;898:lr=0.002,children=2".
func ParseSchedule(text string) (Schedule, error) {
	text = strings.TrimSpace(text)
	if text == "none" {
		return nil, nil
	}
	var s Schedule
	for _, part := range strings.Split(text, ";") {
		from, settings, ok := strings.Cut(strings.TrimSpace(part), ":")
		gen, err := strconv.Atoi(from)
		if !ok || err != nil {
			return nil, fmt.Errorf("selfplay: schedule stage %q: want GEN:lr=X[,children=N]", part)
		}
		st := Stage{From: gen}
		hasLR := false
		for _, kv := range strings.Split(settings, ",") {
			k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
			switch k {
			case "lr":
				st.LR, err = strconv.ParseFloat(v, 64)
				hasLR = true
			case "children":
				st.RescoreChildren, err = strconv.Atoi(v)
			default:
				err = fmt.Errorf("unknown setting %q (want lr or children)", k)
			}
			if err != nil {
				return nil, fmt.Errorf("selfplay: schedule stage %q: %v", part, err)
			}
		}
		if !hasLR {
			return nil, fmt.Errorf("selfplay: schedule stage %q: no lr=", part)
		}
		s = append(s, st)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// at returns the configuration in force at generation gen: c with the
// settings of its schedule's stage there, and its games giving the
// targets of the network's auxiliary heads, if it has any, and the
// samples' surprise, if the run weights by it.
func (c Config) at(gen int) Config {
	c.Game.AuxTargets = c.Net.Aux != 0
	c.Game.Surprise = c.SurpriseWeighting
	if st, ok := c.Schedule.At(gen); ok {
		c.Train.LR = st.LR
		c.Game.RescoreChildren = st.RescoreChildren
	}
	return c
}
