package agent

import "github.com/konanezero/konane/rules"

// RecordAgainst is the record of g, a person, named "you", playing human
// against the computer, named computer, at event.
func RecordAgainst(g *rules.Game, event string, human rules.Color, computer string) *rules.Record {
	black, white := "you", computer
	if human == rules.White {
		black, white = computer, "you"
	}
	return g.Record(
		rules.Tag{Key: "Event", Value: event},
		rules.Tag{Key: "Black", Value: black},
		rules.Tag{Key: "White", Value: white},
	)
}
