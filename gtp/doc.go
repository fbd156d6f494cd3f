// Package gtp is a Go Text Protocol (version 2) engine for Kōnane, so that
// external tools (match runners, GUIs, scripts) can drive the agent: it
// reads commands line by line and answers each with "= result" or
// "? error", followed by a blank line, echoing the command's numeric id
// when it has one.
//
// Commands: protocol_version, name, version, known_command, list_commands,
// boardsize, KataGo's rectangular_boardsize W H, clear_board, play,
// genmove, undo, showboard, quit, and the Kōnane extensions
// konane-legal_moves, konane-solve and konane-eval.
//
// Colours are black/b and white/w; moves are in the project's notation
// (d4 for a removal, f4-d4 for a jump). Kōnane has no passes and strict
// turns, so play and genmove fail for the side not to move, and genmove
// in a finished game fails with "no legal move: COLOUR has lost" rather
// than answering pass or resign. boardsize and rectangular_boardsize
// accept the sizes that have a model and, with Config.PVSTime set, every
// other board up to 16x16 (the gap start where it is defined), which the
// classical engine plays (konane-eval then answers that it gives no win
// probability). konane-solve answers "COLOUR wins: MOVE..." (every winning move)
// or "COLOUR loses" for the side to move, on positions small enough to
// solve. konane-eval answers the side to move's win probability and the
// principal line of a search: "white 0.430 c5-c3 d6-d4".
//
// Bad input never ends the session: a malformed, unknown or illegal
// command gets a failure response, and only quit or the end of the input
// ends it.
package gtp
