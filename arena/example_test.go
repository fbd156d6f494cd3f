package arena_test

import (
	"fmt"

	"github.com/konanezero/konane/arena"
)

func ExampleSPRT_Test() {
	s := arena.SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}
	fmt.Println(s.Test(10, 0))
	fmt.Println(s.Test(23, 0))
	fmt.Println(s.Test(0, 20))
	// Output:
	// continue
	// accept H1
	// accept H0
}

func ExampleFitElo() {
	// b won 75 of 100 games against a: 400·log10(3) ≈ 191 Elo better.
	r, err := arena.FitElo([]string{"a", "b"}, []arena.Pair{{A: 0, B: 1, WinsA: 25, WinsB: 75}}, 0, 0)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s %+.0f [%+.0f, %+.0f]\n", r[1].Name, r[1].Elo, r[1].Low, r[1].High)
	// Output:
	// b +191 [+112, +269]
}
