package agent

import (
	"testing"
	"time"

	"github.com/konanezero/konane/rules"
)

func TestRecordAgainst(t *testing.T) {
	g, _ := rules.NewGame(6)
	for _, tc := range []struct {
		human        rules.Color
		black, white string
	}{
		{rules.Black, "you", "konane (easy)"},
		{rules.White, "konane (easy)", "you"},
	} {
		r := RecordAgainst(g, "test", tc.human, "konane (easy)", time.Time{})
		if r.Tag("Event") != "test" || r.Tag("Black") != tc.black || r.Tag("White") != tc.white || r.Tag("Result") != rules.Unfinished {
			t.Errorf("human %v: tags %v", tc.human, r.Tags)
		}
		if r.Tag("Date") != "" {
			t.Errorf("human %v: a Date tag %q without a date", tc.human, r.Tag("Date"))
		}
	}
	r := RecordAgainst(g, "test", rules.Black, "konane (easy)", time.Date(2026, 12, 3, 23, 59, 0, 0, time.UTC))
	if got := r.Tag("Date"); got != "2026.12.03" {
		t.Errorf("Date tag %q, want 2026.12.03", got)
	}
}
