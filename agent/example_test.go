package agent_test

import (
	"context"
	"fmt"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

func ExampleLevels() {
	for _, l := range agent.Levels() {
		fmt.Println(l.Number, l.Name, l.Sims)
	}
	// Output:
	// 1 newcomer 1
	// 2 beginner 1
	// 3 casual 8
	// 4 easy 16
	// 5 steady 64
	// 6 medium 512
	// 7 hard 2048
	// 8 max 8192
}

func ExampleNewLimits() {
	s, _ := agent.NewLimits("hard", 0, 0)
	fmt.Println(s)
	s, _ = agent.NewLimits("hard", 0, 1500_000_000) // --time 1.5s
	fmt.Println(s)
	// Output:
	// 2048 simulations per move
	// 1.5s per move
}

// The agent answers a position with its move, its win probability and
// the line it expects.
func ExampleAgent_Move() {
	engines, err := agent.OpenEngines("") // the shipped models
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go engines.Run(ctx)
	e, _ := engines.Get(6)
	a, _ := e.NewAgent(1)
	g, _ := rules.NewGame(6)
	an, err := a.Move(ctx, g.Position(), player.Limits{Sims: 16})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Play(an.Best) == nil, an.WinProb() >= 0 && an.WinProb() <= 1, an.PV[0] == an.Best)
	// Output: true true true
}
