package agent

import (
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// The settings of a model spec (player.Spec) that this package reads,
// besides the model file, sims, time and name that package player reads:
//
//	level=L    a difficulty level (1..8 or its name: ParseLevel), as play,
//	           serve and gtp offer it: its simulations, unless sims or time
//	           is given, its use of the solver, unless solver is given, and
//	           its draw or slips (a weak level: Level)
//	solver=on|off search with MCTS-Solver and the exact endgame solver (on,
//	           the default but for the levels up to easy) or plain MCTS
//	ptemp=T    the temperature of the network's priors in the search
//	           (mcts.Config.PolicyTemp; default PolicyTemp for the model's
//	           size; 1 uses them as they are)
//	board=B    the board a multi-board model plays (default 8x8): N, WxH
//	           or any name rules.ParseBoard reads, a board of at most
//	           rules.MaxSize files and ranks; for a single-board model, its
//	           own size or an error
//
// A model spec needs level, sims or time.
const (
	settingLevel      = "level"
	settingSolver     = "solver"
	settingPolicyTemp = "ptemp"
	settingBoard      = "board"
)

// Kinds are the kinds of player a spec may name: player.DefaultKinds,
// with the model kind reading the settings above too, and the pvs kind
// a level (pvsLevelKind).
var Kinds = player.DefaultKinds.With(player.Kind{
	Name:   player.KindModel,
	Keys:   []string{settingLevel, "sims", "time", settingSolver, settingPolicyTemp, settingBoard, "name", "file"},
	Set:    setModelSetting,
	Finish: checkModelSpec,
}).With(pvsLevelKind(player.DefaultKinds))

// pvsLevelKind is the pvs kind of ks with one setting more,
//
//	level=L    the classical engine as a level plays where no network
//	           plays (7x6, 9x8 and the other boards without a model, in
//	           play, serve and gtp): the level's time per move
//	           (Level.PVSTime), unless depth or time is given, and its
//	           share of random moves (Level.Noise, player.Choice.Slip,
//	           drawn from player.SlipRand of the player's seed)
//
// so that a match measures those levels: pvs:level=newcomer.
func pvsLevelKind(ks player.Kinds) player.Kind {
	var k player.Kind
	for _, d := range ks {
		if d.Name == player.KindPVS {
			k = d
		}
	}
	finish, newPVS := k.Finish, k.New
	k.Keys = append([]string{settingLevel}, k.Keys...)
	k.Set = func(key, value string) (string, error) {
		if key != settingLevel {
			return "", fmt.Errorf("agent: no pvs setting %q", key) // Keys names only level besides player's
		}
		l, err := ParseLevel(value)
		if err != nil {
			return "", err
		}
		return l.Name, nil
	}
	k.Finish = func(s *player.Spec) error {
		if name := s.Settings[settingLevel]; name != "" && s.Depth == 0 && s.Time == 0 {
			l, _ := ParseLevel(name) // checked by Set
			s.Time = l.PVSTime
		}
		if finish != nil {
			return finish(s)
		}
		return nil
	}
	k.New = func(s player.Spec, seed uint64) (player.Player, error) {
		p, err := newPVS(s, seed)
		if err != nil || s.Settings[settingLevel] == "" {
			return p, err
		}
		l, _ := ParseLevel(s.Settings[settingLevel]) // checked by Set
		if l.Noise == 0 {
			return p, nil
		}
		wp, ok := p.(player.WidePlayer)
		if !ok {
			return nil, fmt.Errorf("agent: %s: the pvs player %T plays no wide board", s.Name, p)
		}
		return player.NewSlipping(wp, l.Limits().Choice, seed), nil
	}
	return k
}

// ParseSpec reads a player spec of one of Kinds (see player.Spec): the
// spec parser of commands that load model players.
func ParseSpec(text string) (player.Spec, error) { return Kinds.Parse(text) }

// setModelSetting checks a value of one of the settings above and returns
// it as the spec keeps it (level and solver in lower case, ptemp as the
// shortest text of its number: 1.0 is 1).
func setModelSetting(key, value string) (string, error) {
	switch key {
	case settingLevel:
		if value == "" {
			return "", errors.New("empty level")
		}
		return strings.ToLower(value), nil
	case settingSolver:
		v := strings.ToLower(value)
		if v != "on" && v != "off" {
			return "", errors.New("want on or off")
		}
		return v, nil
	case settingPolicyTemp:
		x, err := parsePolicyTemp(value)
		if err != nil {
			return "", err
		}
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	case settingBoard:
		b, err := rules.ParseBoard(value)
		if err != nil {
			return "", fmt.Errorf("want a board of %d to %d files and ranks (N or WxH)", rules.MinSide, rules.MaxSide)
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("agent: no model setting %q", key) // Kinds names only the keys above
}

func parsePolicyTemp(value string) (float64, error) {
	x, err := strconv.ParseFloat(value, 64)
	if err != nil || !(x >= mcts.MinPolicyTemp && x <= mcts.MaxPolicyTemp) {
		return 0, fmt.Errorf("want a number in [%v, %v]", mcts.MinPolicyTemp, mcts.MaxPolicyTemp)
	}
	return x, nil
}

// checkModelSpec checks that a model spec says how long to search.
func checkModelSpec(s *player.Spec) error {
	if s.Sims == 0 && s.Time == 0 && s.Settings[settingLevel] == "" {
		return errors.New("model needs level=L, sims=N or time=D")
	}
	return nil
}

// specBoard is the board of a model spec; ok is false when it gives
// none.
func specBoard(s player.Spec) (b rules.Board, ok bool) {
	text := s.Settings[settingBoard]
	if text == "" {
		return rules.Board{}, false
	}
	b, err := rules.ParseBoard(text)
	return b, err == nil // checked by ParseSpec
}

// OnBoard returns s, a spec of any kind, with board b as a model spec's
// board unless it names one (board=): what a match on b gives its model
// players. b must be valid; s is not changed.
func OnBoard(s player.Spec, b rules.Board) player.Spec {
	if s.Kind != player.KindModel || s.Settings[settingBoard] != "" {
		return s
	}
	s.Settings = maps.Clone(s.Settings)
	if s.Settings == nil {
		s.Settings = map[string]string{}
	}
	s.Settings[settingBoard] = b.String()
	return s
}

// specPolicyTemp is the ptemp of a model spec; 0 when it gives none.
func specPolicyTemp(s player.Spec) float64 {
	x, _ := parsePolicyTemp(s.Settings[settingPolicyTemp]) // checked by ParseSpec
	return x
}
