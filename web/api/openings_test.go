package api

import (
	"context"
	"net/http"
	"testing"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// TestOpenings: GET /api/v2/openings?size=4 lists every pair of removals
// of rules.Openings with the agent's view and the solver's result, the
// agent's choice and the game's exact value (the solver's, checked here
// on its own); the second request is answered from the cache; a size
// without a model is 400, a POST 405.
func TestOpenings(t *testing.T) {
	es, err := agent.NewEngines(agenttest.TinyModel(t, 4))
	if err != nil {
		t.Fatal(err)
	}
	agenttest.Run(t, es)
	ts := newTestServer(t, Config{Engines: es, ReviewSims: 8})

	var pr openingsProgressJSON
	if code := ts.call(t, "/api/v2/openings?size=4&progress=1", "", &pr); code != http.StatusOK || pr != (openingsProgressJSON{Size: 4}) {
		t.Fatalf("progress before the first request: %d %+v", code, pr)
	}
	var op openingsJSON
	if code := ts.call(t, "/api/v2/openings?size=4", "", &op); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	want := rules.Openings(4)
	if op.Size != 4 || op.Sims != 8 || len(op.Openings) != len(want) || !op.Solved {
		t.Fatalf("openings of 4x4: %+v, want %d openings, solved", op, len(want))
	}
	s := solver.New()
	var res []solver.OpeningResult
	agree := 0
	for i, o := range op.Openings {
		w := want[i]
		win, err := s.Solve(context.Background(), w.Position)
		if err != nil {
			t.Fatal(err)
		}
		exact := map[bool]string{true: "black", false: "white"}[win]
		if o.Black != w.Black.String() || o.White != w.White.String() || o.Exact != exact ||
			o.BlackWinrate < 0 || o.BlackWinrate > 1 || o.PV == nil {
			t.Fatalf("opening %d: %+v, want %v %v, exact %s", i, o, w.Black, w.White, exact)
		}
		if (o.BlackWinrate > 0.5) == win {
			agree++
		}
		res = append(res, solver.OpeningResult{Opening: w, BlackWins: win})
	}
	winner := "white"
	if len(solver.WinningRemovals(res)) > 0 {
		winner = "black"
	}
	if op.Winner != winner || op.Agree != agree || op.Choice == "" {
		t.Fatalf("winner %q agree %d choice %q, want %q, %d", op.Winner, op.Agree, op.Choice, winner, agree)
	}
	var again openingsJSON
	ts.call(t, "/api/v2/openings?size=4", "", &again)
	if ts.openingsCache.tables[4] == nil || again.Choice != op.Choice || again.Openings[0].BlackWinrate != op.Openings[0].BlackWinrate {
		t.Fatalf("the second answer is not the cached one: %+v", again)
	}

	if code := ts.call(t, "/api/v2/openings?size=4&progress=1", "", &pr); code != http.StatusOK || pr != (openingsProgressJSON{Size: 4, Ready: true}) {
		t.Fatalf("progress after the table: %d %+v", code, pr)
	}

	var e errJSON
	if code := ts.call(t, "/api/v2/openings?size=8", "", &e); code != http.StatusBadRequest || e.Code != "error.size" {
		t.Fatalf("size 8 without a model: %d %+v", code, e)
	}
	if code := ts.call(t, "/api/v2/openings?size=x", "", &e); code != http.StatusBadRequest || e.Code != "error.size" {
		t.Fatalf("size x: %d %+v", code, e)
	}
	if code := ts.call(t, "/api/v2/openings", `{}`, &e); code != http.StatusMethodNotAllowed {
		t.Fatalf("POST: %d %+v", code, e)
	}
}

// TestOpeningsProgress: while a table is computed, its progress is what
// the computation last noted; other sizes are untouched; at the end it
// is ready and the progress gone.
func TestOpeningsProgress(t *testing.T) {
	var c openingsCache
	noted, finish := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		_, err := c.get(context.Background(), 6, func() (*openingsJSON, error) {
			c.setProgress(6, 12, 64)
			close(noted)
			<-finish
			return &openingsJSON{Size: 6}, nil
		})
		done <- err
	}()
	<-noted
	if got := c.progressOf(6); got != (openingsProgressJSON{Size: 6, Computing: true, Done: 12, Total: 64}) {
		t.Errorf("while computing: %+v", got)
	}
	if got := c.progressOf(8); got != (openingsProgressJSON{Size: 8}) {
		t.Errorf("another size: %+v", got)
	}
	close(finish)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := c.progressOf(6); got != (openingsProgressJSON{Size: 6, Ready: true}) || len(c.progress) != 0 {
		t.Errorf("after: %+v, progress kept %v", got, c.progress)
	}
}
