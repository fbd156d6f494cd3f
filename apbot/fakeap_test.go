package apbot

import (
	"crypto/ed25519"
	crand "crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// This file is a fake AbstractPlay, written from node-backend's documents
// and reference code, not from this package: it signs webhooks as
// lib/botSigning.ts does, serves the token endpoint of
// docs/bots/authentication.md and a botQuery that checks the token and
// the body of docs/api/bot-queries.md, and keeps its games with apGame, a
// port of gameslib's konane.ts, so that the bot's moves are checked by
// AbstractPlay's rules rather than by our own.

// apGame is gameslib's KonaneGame, ported: board cells named as
// GameBase.coords2algebraic does (x = column from the left, y = row from
// the top, rank = height - y), player 1 on the cells whose x+y is odd.
type apGame struct {
	w, h    int
	board   map[string]int
	cur     int // 1 or 2
	plies   int // the stack's length - 1
	history []string
}

func newAPGame(variants []string) *apGame {
	w, h := 6, 6
	for _, v := range variants {
		if strings.Contains(v, "size") {
			w, _ = strconv.Atoi(strings.TrimPrefix(v, "size-"))
			switch w {
			case 6, 8:
				h = w
			case 7:
				h = 6
			case 9, 11:
				h = 8
			case 15:
				h = 12
			}
			break
		}
	}
	g := &apGame{w: w, h: h, board: map[string]int{}, cur: 1}
	color := 2
	for x := 0; x < w; x++ {
		for y := 0; y < h; y++ {
			if !(w == 7 && (y == 2 || y == 3) && x == 3) && !(w == 9 && (y == 3 || y == 4) && x == 4) &&
				!(w == 11 && (y == 3 || y == 4) && x == 5) && !(w == 15 && (y == 5 || y == 6) && x == 7) {
				g.board[g.cell(x, y)] = color
			}
			color = 3 - color
		}
		color = 3 - color
	}
	return g
}

func (g *apGame) cell(x, y int) string { return fmt.Sprintf("%c%d", 'a'+x, g.h-y) }

func (g *apGame) coords(c string) (int, int) {
	r, _ := strconv.Atoi(c[1:])
	return int(c[0] - 'a'), g.h - r
}

func (g *apGame) on(x, y int) bool { return x >= 0 && y >= 0 && x < g.w && y < g.h }

// moves is KonaneGame.moves().
func (g *apGame) moves() []string {
	var ms []string
	if (g.w == 6 || g.w == 8) && g.plies < 2 {
		if g.plies == 0 {
			if g.w == 6 {
				return []string{"a1", "c3", "d4", "f6"}
			}
			return []string{"a1", "d4", "e5", "h8"}
		}
		x, y := g.coords(g.history[0])
		for _, d := range [][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
			if g.on(x+d[0], y+d[1]) {
				ms = append(ms, g.cell(x+d[0], y+d[1]))
			}
		}
		return ms
	}
	for y := 0; y < g.h; y++ {
		for x := 0; x < g.w; x++ {
			if g.board[g.cell(x, y)] != g.cur {
				continue
			}
			for _, d := range [][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
				ox, oy := x+d[0], y+d[1]
				lx, ly := x+2*d[0], y+2*d[1]
				for g.on(ox, oy) && g.on(lx, ly) && g.board[g.cell(ox, oy)] != 0 && g.board[g.cell(lx, ly)] == 0 {
					ms = append(ms, g.cell(x, y)+"-"+g.cell(lx, ly))
					ox, oy, lx, ly = lx+d[0], ly+d[1], lx+2*d[0], ly+2*d[1]
				}
			}
		}
	}
	return ms
}

// move is KonaneGame.move(): an error for a move not in moves().
func (g *apGame) move(m string) error {
	if !slices.Contains(g.moves(), m) {
		return fmt.Errorf("illegal move %q at ply %d", m, g.plies+1)
	}
	if from, to, jump := strings.Cut(m, "-"); !jump {
		delete(g.board, m)
	} else {
		x, y := g.coords(from)
		ex, ey := g.coords(to)
		dx, dy := sign(ex-x), sign(ey-y)
		delete(g.board, from)
		for x != ex || y != ey {
			x, y = x+dx, y+dy
			if c := g.cell(x, y); g.board[c] != 0 && g.board[c] != g.cur {
				delete(g.board, c)
			}
		}
		g.board[to] = g.cur
	}
	g.history = append(g.history, m)
	g.plies++
	g.cur = 3 - g.cur
	return nil
}

func sign(d int) int {
	switch {
	case d > 0:
		return 1
	case d < 0:
		return -1
	}
	return 0
}

func (g *apGame) over() bool { return len(g.moves()) == 0 }

// rounds is GameBase.moveHistory(): the moves by rounds of two.
func (g *apGame) rounds() [][]string {
	out := [][]string{}
	for i := 0; i < len(g.history); i += 2 {
		out = append(out, slices.Clone(g.history[i:min(i+2, len(g.history))]))
	}
	return out
}

// fakeAP is AbstractPlay for the bot: the signer of webhooks, the token
// endpoint and botQuery.
type fakeAP struct {
	t      *testing.T
	priv   ed25519.PrivateKey
	pub    ed25519.PublicKey
	srv    *httptest.Server
	secret string
	scope  string
	expiry int // expires_in of the tokens, seconds

	mu        sync.Mutex
	games     map[string]*apGame
	variants  map[string][]string
	tokens    map[string]bool // issued and still valid
	tokenHits int
	fail      []int               // status codes to answer botQuery's next calls with; 0 = hang
	hang      chan struct{}       // closed to release the hung calls
	bodies    [][]byte            // every body botQuery got
	moves     map[string][]string // game → the moves botQuery took
	delay     time.Duration       // before each answer of botQuery
}

const (
	testClientID = "bot-client-id"
	testSecret   = "s3cret-Do-Not-Log-7f1c"
	testScope    = "default-m2m-resource-server-dev/communicate"
)

func newFakeAP(t *testing.T) *fakeAP {
	pub, priv, err := ed25519.GenerateKey(crand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ap := &fakeAP{t: t, priv: priv, pub: pub, secret: testSecret, scope: testScope, expiry: 3600,
		games: map[string]*apGame{}, variants: map[string][]string{}, tokens: map[string]bool{},
		moves: map[string][]string{}, hang: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /oauth2/token", ap.token)
	mux.HandleFunc("POST /dev/botQuery", ap.botQuery)
	ap.srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		ap.release()
		ap.srv.Close()
	})
	return ap
}

func (ap *fakeAP) creds() Credentials {
	return Credentials{ClientID: testClientID, ClientSecret: testSecret, TokenURL: ap.srv.URL + "/oauth2/token",
		Scope: testScope, QueryURL: ap.srv.URL + "/dev/botQuery"}
}

// release lets the hung botQuery calls end.
func (ap *fakeAP) release() {
	ap.mu.Lock()
	defer ap.mu.Unlock()
	select {
	case <-ap.hang:
	default:
		close(ap.hang)
	}
}

// token is Cognito's client-credentials grant: a form POST.
func (ap *fakeAP) token(w http.ResponseWriter, r *http.Request) {
	if ct := r.Header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" {
		http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
		return
	}
	if err := r.ParseForm(); err != nil {
		http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
		return
	}
	f := r.PostForm
	if f.Get("grant_type") != "client_credentials" || f.Get("client_id") != testClientID ||
		f.Get("client_secret") != ap.secret || f.Get("scope") != ap.scope {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":"invalid_client"}`)
		return
	}
	b := make([]byte, 16)
	crand.Read(b)
	tok := "eyJ" + hex.EncodeToString(b)
	ap.mu.Lock()
	ap.tokens[tok] = true
	ap.tokenHits++
	exp := ap.expiry
	ap.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "expires_in": exp, "token_type": "Bearer"})
}

// expireTokens makes every token issued so far invalid, as if it had
// expired on AbstractPlay's clock.
func (ap *fakeAP) expireTokens() {
	ap.mu.Lock()
	clear(ap.tokens)
	ap.mu.Unlock()
}

// failNext makes botQuery answer its next calls with these codes (0:
// hang until the client gives up).
func (ap *fakeAP) failNext(codes ...int) {
	ap.mu.Lock()
	ap.fail = append(ap.fail, codes...)
	ap.mu.Unlock()
}

// botQuery is the bot's way in: a Bearer token of the pool, a flat JSON
// body {"verb":"move","gameid","metaGame","move"}, the move checked by
// AbstractPlay's rules.
func (ap *fakeAP) botQuery(w http.ResponseWriter, r *http.Request) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	ap.mu.Lock()
	valid := ok && ap.tokens[tok]
	var fail = -1
	if valid && len(ap.fail) > 0 {
		fail, ap.fail = ap.fail[0], ap.fail[1:]
	}
	hang, delay := ap.hang, ap.delay
	ap.mu.Unlock()
	time.Sleep(delay)
	if !valid {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"message":"Unauthorized"}`) // API Gateway's
		return
	}
	body, _ := io.ReadAll(r.Body)
	switch {
	case fail == 0:
		// A move that gets through but whose answer never comes.
		ap.apply(body)
		select {
		case <-hang:
		case <-r.Context().Done():
		}
		return
	case fail > 0:
		http.Error(w, `{"message":"failure"}`, fail)
		return
	}
	if r.Header.Get("Content-Type") != "application/json" {
		http.Error(w, `{"message":"want JSON"}`, http.StatusBadRequest)
		return
	}
	if err := ap.apply(body); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]string{"message": err.Error()})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"game":"updated"}`)
}

// apply checks a botQuery body and plays its move in its game.
func (ap *fakeAP) apply(body []byte) error {
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	var s struct {
		Verb, GameID, MetaGame, Move *string
	}
	var raw map[string]*string
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	s.Verb, s.GameID, s.MetaGame, s.Move = raw["verb"], raw["gameid"], raw["metaGame"], raw["move"]
	if len(raw) != 4 || s.Verb == nil || *s.Verb != "move" || s.GameID == nil || s.MetaGame == nil || *s.MetaGame != "konane" || s.Move == nil {
		return fmt.Errorf("bad body %s", body)
	}
	ap.mu.Lock()
	defer ap.mu.Unlock()
	ap.bodies = append(ap.bodies, body)
	g := ap.games[*s.GameID]
	if g == nil {
		return fmt.Errorf("no game %s", *s.GameID)
	}
	if err := g.move(*s.Move); err != nil {
		return err
	}
	ap.moves[*s.GameID] = append(ap.moves[*s.GameID], *s.Move)
	return nil
}

// sign returns the signature headers of body, as lib/botSigning.ts:
// timestamp in seconds, a random hex nonce, the base64 Ed25519 signature
// of "timestamp.nonce.body".
func (ap *fakeAP) sign(body []byte, at time.Time) http.Header {
	b := make([]byte, 16)
	crand.Read(b)
	ts, nonce := strconv.FormatInt(at.Unix(), 10), hex.EncodeToString(b)
	sig := ed25519.Sign(ap.priv, []byte(ts+"."+nonce+"."+string(body)))
	h := http.Header{}
	h.Set(HeaderTimestamp, ts)
	h.Set(HeaderNonce, nonce)
	h.Set(HeaderSignature, base64.StdEncoding.EncodeToString(sig))
	h.Set("Content-Type", "application/json")
	return h
}

// post sends a webhook to the bot with headers h and returns the status
// and body of the answer.
func post(t *testing.T, url string, body []byte, h http.Header) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = h
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// webhook sends a signed payload (marshalled as lib/botOutbound.ts does,
// JSON.stringify) and returns the bot's status and answer.
func (ap *fakeAP) webhook(t *testing.T, botURL string, payload any) (int, string) {
	t.Helper()
	body, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	return post(t, botURL, body, ap.sign(body, time.Now()))
}

// newGame starts a game of AbstractPlay's on variants.
func (ap *fakeAP) newGame(id string, variants []string) *apGame {
	ap.mu.Lock()
	defer ap.mu.Unlock()
	g := newAPGame(variants)
	ap.games[id] = g
	ap.variants[id] = variants
	return g
}

// movePayload is buildOutMovePayload's webhook for game id.
func (ap *fakeAP) movePayload(id string, clockCurr int) map[string]any {
	ap.mu.Lock()
	defer ap.mu.Unlock()
	return map[string]any{"verb": "move", "metaGame": "konane", "variants": ap.variants[id], "gameid": id,
		"clockCurr": clockCurr, "numPlayers": 2, "moves": ap.games[id].rounds()}
}

// waitMove waits until botQuery has taken n moves of game id.
func (ap *fakeAP) waitMove(t *testing.T, id string, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ap.mu.Lock()
		got := len(ap.moves[id])
		ap.mu.Unlock()
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("game %s: %d moves submitted, want %d", id, got, n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// plies is the number of moves played in game id.
func (ap *fakeAP) plies(id string) int {
	ap.mu.Lock()
	defer ap.mu.Unlock()
	return ap.games[id].plies
}

// randomMove plays a random legal move in g (AbstractPlay's rules).
func randomMove(t *testing.T, rng *rand.Rand, g *apGame) {
	t.Helper()
	ms := g.moves()
	if err := g.move(ms[rng.IntN(len(ms))]); err != nil {
		t.Fatal(err)
	}
}
