package player_test

import (
	"context"
	"fmt"

	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

func ExampleParseSpec() {
	s, err := player.ParseSpec("alphabeta:depth=6,name=ab6")
	fmt.Println(s.Kind, s.Depth, s.Name, err)
	_, err = player.ParseSpec("alphabeta:dept=6")
	fmt.Println(err)
	// Output:
	// alphabeta 6 ab6 <nil>
	// player: spec "alphabeta:dept=6": unknown setting "dept" for alphabeta (want depth, time, name)
}

func ExampleEngine_Search() {
	// A 4x4 game is short enough to solve from the first jump.
	p := rules.Openings(4)[0].Position
	res := player.NewAlphaBeta(0, 0, 1).Search(context.Background(), p, 0)
	solved, wins, _ := res.Solved()
	fmt.Println("solved:", solved, "side to move wins:", wins)
	// Output:
	// solved: true side to move wins: false
}
