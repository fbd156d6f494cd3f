package apbot

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/internal/golden"
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
}
