package agent

import (
	"time"

	"github.com/konanezero/konane/rules"
)

// RecordAgainst is the record of g (a *rules.Game or *rules.WideGame), a
// person, named "you", playing human against the computer, named
// computer, at event, on date (the Date tag, written YYYY.MM.DD in date's
// location; none when date is zero).
func RecordAgainst(g rules.AnyGame, event string, human rules.Color, computer string, date time.Time) *rules.Record {
	black, white := "you", computer
	if human == rules.White {
		black, white = computer, "you"
	}
	tags := []rules.Tag{{Key: "Event", Value: event}}
	if !date.IsZero() {
		tags = append(tags, rules.Tag{Key: "Date", Value: date.Format("2006.01.02")})
	}
	tags = append(tags, rules.Tag{Key: "Black", Value: black}, rules.Tag{Key: "White", Value: white})
	return g.Record(tags...)
}
