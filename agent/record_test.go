package agent

import (
	"testing"

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
		r := RecordAgainst(g, "test", tc.human, "konane (easy)")
		if r.Tag("Event") != "test" || r.Tag("Black") != tc.black || r.Tag("White") != tc.white || r.Tag("Result") != rules.Unfinished {
			t.Errorf("human %v: tags %v", tc.human, r.Tags)
		}
	}
}
