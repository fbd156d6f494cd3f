// Package apbot is Kōnane Zero's bot for AbstractPlay (`konane bot`): the
// webhook endpoint AbstractPlay calls and the client that submits the
// bot's moves, per the protocol of AbstractPlay's node-backend
// (docs/bots/protocol.md and authentication.md, lib/botVerify.ts,
// lib/botClient.ts, lib/botOutbound.ts, api/testBot.ts).
//
// # The contract
//
// Bot.Handler serves one endpoint, "/", the URL registered with
// AbstractPlay:
//
//   - GET (ping): 200 {"operational": true}; 503 {"operational": false}
//     while draining.
//   - POST: the raw body (at most Config.MaxBody bytes, else 413) must be
//     signed (Verifier: Ed25519 over "<X-Signature-Timestamp>.<X-Signature-Nonce>.<body>"
//     with AbstractPlay's key, timestamp within 5 minutes of our clock,
//     nonce not seen before), else 401 and nothing is done; then
//     Content-Type application/json (else 415), JSON (else 400), and a
//     verb, "challenge" or "move" (else 400).
//   - Challenge: 200 to accept when metaGame is "konane", its variants
//     select a board of the table (Boards) that the rules play, the bot
//     is not draining, and fewer than Config.MaxSearches moves are in
//     flight; else 400 with a message.
//   - Move: 400 for a webhook that is not a Kōnane game the bot plays; 503
//     while draining or with Config.MaxPending moves in flight (the move
//     is lost: counted and logged); else 202 at once, and in the
//     background the rounds of "moves" are replayed with package rules
//     (an illegal history is logged and gets no move), the agent chooses
//     a move within ThinkTime, and Client.Submit posts
//     {"verb":"move","gameid":…,"metaGame":"konane","move":…} to botQuery.
//     A webhook for a game and position already taken (the same game id
//     and moves) is answered 202 and not submitted again.
//   - Other methods: 405.
//
// /healthz answers while the process serves, /readyz while it takes
// webhooks, /metrics has the Prometheus metrics (konane_bot_moves_total
// counts the moves lost: alert on result="lost").
//
// Move strings are AbstractPlay's and ours alike: a removal is its square
// ("d4"), a jump origin and final landing ("c3-c5"); seat 1 is Black
// (a1), who moves first. Boards without a trained network are played by
// the classical engine (player.NewPVS), and the profile text says so
// (Bot.Profile).
//
// The bot keeps nothing on disk. Its nonce and duplicate memories are per
// process, so it runs as one replica. Secrets (the client secret, the
// token) are never logged.
package apbot
