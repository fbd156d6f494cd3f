// Package web serves a page on which people play Kōnane against the agent
// in a browser, and the JSON API behind it.
//
// The page (static/: HTML, plain JavaScript and CSS, embedded in the
// binary; no build step, nothing fetched from elsewhere) draws the board:
// click one of your stones to see its landing squares, click one to jump;
// in the two opening moves the stones you may remove are marked and one
// click removes. It has a difficulty selector, new game, undo, hint, an
// evaluation bar (your win probability by the agent's last search, with
// the line it expects, also as text) and a download of the game record.
// Your move is drawn as soon as you make it, while the computer thinks.
// The level applies from the computer's next move, the board size and
// colour from the next game; the page says so when they change. Game
// over is a banner (✓ won, ✗ lost); Hint is off when it is not your
// move, Undo when you have nothing to take back.
//
// Review (the button under the board, highlighted at game over; or
// "Review a record…" to upload or paste a record played elsewhere, text
// or JSON, the formats `konane analyze` reads) has the server analyse
// every position of the game with package analysis, then shows your
// chance of winning after each move (Black's, for a record) as an inline
// SVG graph with the inaccuracies (◆), mistakes (▲) and blunders (✖)
// marked, each side's count of them, and the moves as a list. Choosing a
// move (a point of the graph, an entry of the list, or Previous/Next)
// shows the position before it with the move played (a solid arrow, a
// ring for a removal) and the computer's choice (dashed) drawn over the
// board, the mover's chance before and after, the class, the solver's
// verdict where it settles the position ("throws away a forced win",
// "only winning move"), the line the computer expected and the one it
// expects after the move played. "Play on from here" starts a game from
// that position against the computer, you playing the side to move.
// It is played by mouse, by touch (on a phone the board fills the width,
// every square is at least 44 px) and by keyboard (the arrow keys move
// over the board, Enter or Space chooses a stone and then its landing
// square, Escape cancels). Every square is a button named for screen
// readers ("d4, black stone, can jump"), the moves of both sides and the
// result are announced in a live region, and highlights are shapes
// (rings, dots, corner marks, a star), not colours alone.
//
// "Learn the rules" (the button at the top, or a link to /#learn) walks a
// beginner through the rules on 6x6 in seven steps, each a position of
// tutorial.go with the stones that matter highlighted: the board and its
// colours, Black's removal, White's removal, a jump, two jumps in one
// direction, the forced jump, and who cannot jump loses. The player
// clicks as in a game; every wrong click is explained. It ends with a
// game against the computer at the easiest level on 6x6.
//
// # Languages
//
// The page speaks English, German, Swedish, Italian and Portuguese. The
// language of a request is the one named by ?lang= (which the page's
// switch sets, and which is then remembered in the lang cookie for a
// year), else the lang cookie, else the best match of Accept-Language
// (golang.org/x/text/language), else English. The server renders the page
// (static/index.html, an html/template) once per language at New, with
// <html lang> and the language's texts, and puts the language's catalog
// into it for the script.
//
// Every text a person reads is in the catalog, messages/<lang>.json: one
// flat object of key → text, with parameters in braces ("{move}"). The
// API does not send sentences: it sends messages as a key and parameters,
// {code, args}, which the page renders with its catalog (one place for
// every text, nothing translated twice); for other clients it adds text,
// the message rendered in the language of the request. The switch
// reloads the page with ?lang=; the game in progress goes on (its record is
// kept in the tab's sessionStorage as well as in the address).
//
// To add a message (say for a new panel):
//
//  1. add "panel.thing": "Text with {param}" to messages/en.json and to
//     each of de, sv, it and pt (same key, same parameters);
//  2. use the key written out in full: t("panel.thing", {param: v}) in
//     static/*.js, {{t "panel.thing"}} in static/index.html, newMsg or
//     badRequest("panel.thing", "param", v) in Go (never a key pieced
//     together from parts: the test looks for the literal);
//  3. run go test ./web -run 'TestCatalog|TestReviewList' -update: the
//     catalog test fails on a key missing in a language, with other
//     parameters, used but not in the catalog, or in the catalog but used
//     nowhere; the update rewrites messages/REVIEW.md, the list of texts
//     wanting a native speaker's review (messages/reviewed.txt lists
//     those reviewed). The server also refuses to start on a catalog
//     with a missing key.
//
// # API
//
// The server keeps no games: the client holds its game as a record
// {size, human, level, start, moves} and sends it with every request; the
// server replays it through the rules (trusting nothing in it) and
// answers. The page keeps it in its address, #g=CODE with CODE
// 1.<size><b|w>.<level>.<start>[.<move>]... (reload, bookmark and a shared
// link bring the game back). The endpoints are under /api/v2/ (config,
// new, state, move, hint, review, record?g=CODE, learn); those of the first
// API, which kept games, answer 410 naming their successor. The whole API,
// its errors and its limits: docs/http-api.md.
//
// Searches are admitted within a budget of Config.Searches searches of the
// default level, each weighing its simulations; up to Config.Queue wait at
// most Config.QueueWait, the rest get 503 with Retry-After; a client has
// at most Config.MaxPerClient requests in flight (429 beyond). The client
// is the request's remote address (an IPv6 address counts by its /64);
// X-Forwarded-For is believed only on requests from
// Config.TrustedProxies, and then only the entries those proxies wrote. A
// replica keeps up to Config.TreeCache search trees keyed by the position
// the agent left a game in, so that a game's next move on it reuses the
// search. /healthz, /readyz (fails once draining), /metrics (Prometheus)
// and one log line per request (Config.Logger) make it operable.
//
//	GET  /?lang=sv                         the page (in Swedish, remembered)
//
// # Usage
//
//	engines, _ := agent.OpenEngines("")
//	go engines.Run(ctx)
//	srv, err := web.New(web.Config{API: api.Config{Engines: engines}})
//	ln, err := net.Listen("tcp", "127.0.0.1:8080")
//	err = srv.Serve(ctx, ln) // until ctx ends, then a graceful shutdown
package web
