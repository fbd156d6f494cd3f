// Package web serves a page on which people play Kōnane against the agent
// in a browser, and the JSON API behind it.
//
// The page (static/: HTML, plain JavaScript and CSS, embedded in the
// binary; no build step, nothing fetched from elsewhere) draws the board:
// click one of your stones to see its landing squares, click one to jump;
// in the two opening moves the stones you may remove are marked and one
// click removes. It has a difficulty selector, new game, undo, hint, an
// evaluation bar (your win probability by the agent's last search, with
// the line it expects) and a download of the game record.
//
// # API
//
// Requests and answers are JSON; errors are {"error": "..."} with a 4xx
// code for a bad request (400 malformed or illegal, 404 unknown game, 405
// wrong method, 413 body too large), and 503 when the server holds its
// maximum of games or the agent could not move in time.
//
//	GET  /api/config                       sizes, levels, defaults
//	POST /api/new    {size, color, level}  a new game → state (the agent has
//	                                       made its first move if it plays Black)
//	GET  /api/state?id=ID                  → state
//	POST /api/move   {id, move}            your move and the agent's reply → state
//	POST /api/undo   {id}                  take back your last move and the reply → state
//	POST /api/level  {id, level}           the agent's level from now on → state
//	POST /api/hint   {id}                  → {move, winProb, pv} for you
//	GET  /api/record?id=ID                 the game record (text format), as a download
//
// A state is {id, size, human, level, turn, phase, board (one string per
// rank, the top rank first, x/o/. per file), moves, last, legal (your
// legal moves when it is your turn), over, winner, message, eval
// {agentMove, humanWinProb, pv} after an agent move}.
//
// # Sessions
//
// Games live in memory: at most Config.MaxSessions at a time, each
// dropped after Config.IdleTimeout without a request (a janitor started
// by Serve, stopped with it). Each game has its own lock, so games do not
// wait for each other; they share the evaluators of the engines, which
// batch their positions. The agent's move is computed within the request
// that asks for it, limited by Config.MoveTimeout; if it fails the human's
// move is taken back and the answer says so.
//
// # Usage
//
//	engines, _ := agent.OpenEngines("")
//	go engines.Run(ctx)
//	srv, err := web.New(web.Config{Engines: engines})
//	ln, err := net.Listen("tcp", "127.0.0.1:8080")
//	err = srv.Serve(ctx, ln) // until ctx ends, then a graceful shutdown
package web
