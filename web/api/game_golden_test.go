package api

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/internal/golden"
)

// TestGameGolden pins the raw answers about a client's game that need no
// search (the record download, the replayed state, a game sent on past
// its end, new games from given moves, resigned games): testdata/game.golden,
// byte for byte; -update rewrites it.
func TestGameGolden(t *testing.T) {
	ts := newTestServer(t, Config{})
	ts.now = func() time.Time { return time.Date(2026, 12, 3, 19, 55, 0, 0, time.UTC) }
	const moves = "b2.b3.d2-b2.d3-b3.a3-c3.a2-c2"
	game := func(human string, start int, moves string) string {
		ms := `"` + strings.ReplaceAll(moves, ".", `","`) + `"`
		return fmt.Sprintf(`{"game": {"size": 4, "human": %q, "level": "easy", "start": %d, "moves": [%s]}}`, human, start, ms)
	}
	resigned := func(body string) string { return strings.Replace(body, `"size"`, `"resigned": true, "size"`, 1) }
	var out strings.Builder
	for _, req := range []struct{ method, path, body string }{
		{"GET", "/api/v2/record?g=1.4b.easy.0." + moves, ""},
		{"GET", "/api/v2/record?g=1.4w.easy.2." + moves, ""},
		{"GET", "/api/v2/record?g=1.4b.easy.0.b2.b3.d2-b2", ""},
		{"GET", "/api/v2/record?g=1.4b.easy.0." + moves + ".a1", ""},
		{"GET", "/api/v2/record?g=1.4b.easy.0.b2.b3.d2-d4", ""},
		{"POST", "/api/v2/state", game("black", 0, moves)},
		{"POST", "/api/v2/state", game("white", 2, "b2.b3.d2-b2")},
		{"POST", "/api/v2/move", game("black", 0, moves+".a1")},
		{"POST", "/api/v2/new", `{"size": 4, "color": "black", "level": "easy", "moves": ["b2", "b3"]}`},
		{"POST", "/api/v2/new", `{"size": 4, "color": "black", "level": "easy", "moves": ["b2", "b3", "d2-d4"]}`},
		{"POST", "/api/v2/new", `{"size": 4, "color": "black", "level": "easy", "moves": ["b2", "b3", "d2-b2", "d3-b3", "a3-c3", "a2-c2", "a1"]}`},
		// Resigned: the code's ".resign", the record's Result, the state
		// over; a resignation after the end is refused, and so are a move
		// and a hint in a resigned game.
		{"GET", "/api/v2/record?g=1.4b.easy.0.b2.b3.d2-b2.resign", ""},
		{"GET", "/api/v2/record?g=1.4w.easy.0.b2.b3.resign", ""},
		{"GET", "/api/v2/record?g=1.4b.easy.0." + moves + ".resign", ""},
		{"POST", "/api/v2/state", resigned(game("black", 0, "b2.b3.d2-b2"))},
		{"POST", "/api/v2/move", `{"move": "d3-b3", ` + resigned(game("white", 0, "b2.b3.d2-b2"))[1:]},
		{"POST", "/api/v2/hint", resigned(game("white", 0, "b2.b3.d2-b2"))},
	} {
		var resp *http.Response
		var err error
		if req.method == "GET" {
			resp, err = http.Get(ts.url + req.path)
		} else {
			resp, err = http.Post(ts.url+req.path, "application/json", strings.NewReader(req.body))
		}
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "%s %s %s\n%d %s\n", req.method, req.path, req.body, resp.StatusCode, resp.Header.Get("Content-Type"))
		if cd := resp.Header.Get("Content-Disposition"); cd != "" {
			fmt.Fprintf(&out, "Content-Disposition: %s\n", cd)
		}
		fmt.Fprintf(&out, "%s\n", body)
	}
	golden.Check(t, "game.golden", []byte(out.String()))
}
