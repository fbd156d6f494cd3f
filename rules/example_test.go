package rules_test

import (
	"fmt"

	"github.com/konanezero/konane/rules"
)

func ExamplePosition_LegalMoves() {
	p := rules.NewPosition(8)
	var buf [rules.MaxMoves]rules.Move // no allocation
	fmt.Println("black removes:", p.LegalMoves(buf[:0]))
	p = p.Play(p.LegalMoves(buf[:0])[1]) // d4
	fmt.Println("white removes:", p.LegalMoves(buf[:0]))
	m, _ := rules.ParseMove(p, "e4")
	p = p.Play(m)
	fmt.Println(p.Turn, "jumps:", p.LegalMoves(buf[:0]))
	// Output:
	// black removes: [a1 d4 e5 h8]
	// white removes: [d3 c4 e4 d5]
	// black jumps: [d2-d4 b4-d4 d6-d4]
}

func ExampleRender() {
	p := rules.NewPosition(5)
	for _, text := range []string{"c3", "c2"} {
		m, _ := rules.ParseMove(p, text)
		p = p.Play(m)
	}
	m, _ := rules.ParseMove(p, "a3-c3")
	fmt.Print(rules.Render(p.Play(m), m))
	// Output:
	// 5 x o x o x
	// 4 o x o x o
	// 3[.].[x]o x
	// 2 o x . x o
	// 1 x o x o x
	//   a b c d e
	// white to move
}

func ExampleParsePosition() {
	p, err := rules.ParsePosition(`
		4 . . . .
		3 . . . .
		2 . . . .
		1 x o . o
		  a b c d
		black to move`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.LegalMoves(nil))
	// Output:
	// [a1-c1]
}

func ExampleGame() {
	g, _ := rules.NewGame(4)
	for _, text := range []string{"b2", "b3", "d2-b2", "d3-b3", "a3-c3", "a2-c2", "a1"} {
		if _, err := g.PlayText(text); err != nil {
			fmt.Println(err)
		}
	}
	w, _ := g.Winner()
	fmt.Println(w, "won after", g.Len(), "moves")
	g.Undo() // white's last jump
	text, _ := g.Record(rules.Tag{Key: "Event", Value: "example"}).MarshalText()
	fmt.Print(string(text))
	// Output:
	// rules: the game is over: black has no legal move, white won
	// white won after 6 moves
	// [Size "4"]
	// [Event "example"]
	// [Result "*"]
	//
	// 1. b2 b3 2. d2-b2 d3-b3 3. a3-c3 *
}
