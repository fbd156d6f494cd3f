package mcts_test

import (
	"context"
	"fmt"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/rules"
)

// A 4x4 endgame, White to move: a4-a2 leaves Black without a jump; d1-d3
// wins too, but only later. The search, knowing nothing but the rules
// (the Uniform evaluator), finds both wins and prefers the quick one.
// With MCTS-Solver (the default) the win is proved when the root is
// expanded, and played at once without a simulation.
func Example() {
	sq := func(name string) rules.Bitboard {
		s, _ := rules.ParseSquare(name, 4)
		return s.Bit()
	}
	p := rules.Position{
		Size:  4,
		Turn:  rules.White,
		Black: sq("a3") | sq("c3") | sq("d2") | sq("d4"),
		White: sq("a4") | sq("b1") | sq("d1"),
	}
	fmt.Print(p)
	fmt.Println("moves:", p.LegalMoves(nil))

	plain := mcts.DefaultConfig()
	plain.Solver = false
	s, err := mcts.New(mcts.Uniform{}, plain, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := s.Run(context.Background(), p, mcts.RunOptions{Sims: 100})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, m := range res.Moves {
		fmt.Printf("%v: %d visits, Q %.2f\n", m, res.Visits[i], res.Q[i])
	}
	fmt.Println("best:", res.Best)

	s, err = mcts.New(mcts.Uniform{}, mcts.DefaultConfig(), 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err = s.Run(context.Background(), p, mcts.RunOptions{Sims: 100})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("solver: proven %v, value %v, best %v after %d simulations\n", res.Proven, res.Value, res.Best, res.Sims)
	// Output:
	// 4 o . . x
	// 3 x . x .
	// 2 . . . x
	// 1 . o . o
	//   a b c d
	// white to move
	// moves: [d1-d3 a4-a2]
	// d1-d3: 40 visits, Q 0.95
	// a4-a2: 60 visits, Q 1.00
	// best: a4-a2
	// solver: proven true, value 1, best a4-a2 after 0 simulations
}
