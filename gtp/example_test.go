package gtp_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/gtp"
	"github.com/konanezero/konane/player"
)

// A controller sets up a 6x6 game, plays the two removals and a jump, and
// asks for the board and the legal moves.
func ExampleEngine_Serve() {
	engines, err := agent.OpenEngines("") // the shipped models
	if err != nil {
		fmt.Println(err)
		return
	}
	e, err := gtp.New(gtp.Config{Engines: engines, Limits: player.Limits{Sims: 16}})
	if err != nil {
		fmt.Println(err)
		return
	}
	commands := strings.Join([]string{
		"1 boardsize 6",
		"2 play black c3",
		"3 play white c4",
		"4 play white a3-c3",
		"5 play b a3-c3",
		"6 showboard",
		"7 konane-legal_moves",
		"8 quit",
	}, "\n")
	if err := e.Serve(context.Background(), strings.NewReader(commands), os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// =1
	//
	// =2
	//
	// =3
	//
	// ?4 illegal move: it is black's turn, not white's (Kōnane has no passes)
	//
	// =5
	//
	// =6
	// 6 o x o x o x
	// 5 x o x o x o
	// 4 o x . x o x
	// 3[.].[x]o x o
	// 2 o x o x o x
	// 1 x o x o x o
	//   a b c d e f
	// white to move
	//
	// =7 b1-b3 c2-c4 a4-c4 b5-b3 c6-c4 d3-b3 e4-c4
	//
	// =8
}
