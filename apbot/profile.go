package apbot

import (
	"fmt"
	"strings"
)

// Supported is one entry of the "supported" list of AbstractPlay's
// update_bot: a game and the variants the bot accepts.
type Supported struct {
	Meta     string   `json:"meta"`
	Variants []string `json:"variants"`
}

// Supported is the bot's "supported" list for update_bot, from the board
// table: Kōnane with the variant ids of the boards it plays (the default
// board has none; update_bot does not say how to name it, so the entry's
// meta stands for it).
func (b *Bot) Supported() []Supported {
	s := Supported{Meta: MetaGame, Variants: []string{}}
	for _, board := range boards {
		if ok, _ := b.Plays(board); ok && board.Variant != "" {
			s.Variants = append(s.Variants, board.Variant)
		}
	}
	return []Supported{s}
}

// Profile is the bot's description for its AbstractPlay profile
// (update_bot's description), from the board table: the boards it plays,
// which of them with a trained network and which with the classical
// engine, and how long it thinks.
func (b *Bot) Profile() string {
	var network, classical []string
	for _, board := range boards {
		switch ok, nn := b.Plays(board); {
		case ok && nn:
			network = append(network, board.String())
		case ok:
			classical = append(classical, board.String())
		}
	}
	var sb strings.Builder
	sb.WriteString("Kōnane Zero, a Kōnane agent trained from zero by self-play (AlphaZero-style search with a neural network).")
	if len(network) > 0 {
		fmt.Fprintf(&sb, " Plays %s with its trained network.", joinAnd(network))
	}
	if len(classical) > 0 {
		fmt.Fprintf(&sb, " Plays %s with its classical engine (alpha-beta search), no network yet: weaker there.", joinAnd(classical))
	}
	fmt.Fprintf(&sb, " Thinks up to %v a move", b.cfg.MoveTime)
	if b.cfg.MoveTime > ShortMoveTime {
		fmt.Fprintf(&sb, " (%v when its clock shows an hour or less)", ShortMoveTime)
	}
	sb.WriteString(".")
	return sb.String()
}

func joinAnd(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
