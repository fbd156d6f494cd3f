package apbot

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/internal/golden"
	"github.com/konanezero/konane/rules"
)

// TestProfile: the profile text and the supported list come from the
// board table and the engines; a board without a network is played by the
// classical engine, and the profile says so.
func TestProfile(t *testing.T) {
	ap := newFakeAP(t)
	tb := newTestBot(t, ap, func(c *Config, _ *ClientConfig) { c.MoveTime = 5 * time.Second })
	sup, _ := json.Marshal(tb.Supported())
	golden.Check(t, "profile.golden", []byte(tb.Profile()+"\n"+string(sup)+"\n"))

	// Only a 6x6 network: 8x8 is played by the classical engine.
	es, err := agent.NewEngines(agenttest.TinyModel(t, 6))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go es.Run(ctx)
	tc := newTestBot(t, ap, func(c *Config, _ *ClientConfig) { c.Engines = es })
	golden.Check(t, "profile-classical.golden", []byte(tc.Profile()+"\n"))
	g := ap.newGame("classical", []string{"size-8"})
	g.move("d4")
	g.move("d5")
	if code, body := ap.webhook(t, tc.url, ap.movePayload("classical", 48)); code != 202 {
		t.Fatalf("%d %s", code, body)
	}
	ap.waitMove(t, "classical", 1)

	// A table of networks whose multi-board network plays 7x6 and 15x12
	// (agent.EnginesOf): the profile names them with the network, 9x8
	// (trained but not in the table) with the classical engine.
	gap := func(w, h int) rules.Board { return rules.Board{W: w, H: h, Start: rules.Gap} }
	table := agenttest.RunTable(t, []rules.Board{gap(7, 6), gap(9, 8), gap(15, 12)}, gap(7, 6), gap(15, 12))
	tt := newTestBot(t, ap, func(c *Config, _ *ClientConfig) { c.Engines = table })
	want := "Plays 7x6 (size-7) and 15x12 (size-15) with its trained network. Plays 6x6 (default), 8x8 (size-8), 9x8 (size-9) and 11x8 (size-11) with its classical engine"
	if p := tt.Profile(); !strings.Contains(p, want) {
		t.Errorf("profile with the table: %q, want %q in it", p, want)
	}
}
