package solver_test

import (
	"context"
	"fmt"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

func ExampleSolver_SolveStart() {
	s := solver.New()
	start, err := s.SolveStart(context.Background(), 4, nil)
	if err != nil {
		panic(err)
	}
	for _, o := range start.Openings[:4] {
		fmt.Println(o.Black, o.White, "black wins:", o.BlackWins)
	}
	fmt.Println("4x4 black wins:", start.BlackWins)
	// Output:
	// a1 b1 black wins: false
	// a1 a2 black wins: false
	// b2 b1 black wins: true
	// b2 a2 black wins: true
	// 4x4 black wins: false
}

func ExampleSolver_Analyze() {
	p := rules.NewPosition(4)
	for _, text := range []string{"b2", "b1", "d2-b2"} {
		m, err := rules.ParseMove(p, text)
		if err != nil {
			panic(err)
		}
		p = p.Play(m)
	}
	s := solver.New()
	results, err := s.Analyze(context.Background(), p)
	if err != nil {
		panic(err)
	}
	for _, r := range results {
		fmt.Println(r.Move, "wins:", r.Wins)
	}
	// Output:
	// a2-c2 wins: false
	// b3-b1 wins: true
	// c4-c2 wins: false
	// d1-b1 wins: false
}
