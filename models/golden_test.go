package models

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/konanezero/konane/internal/golden"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/rules/rulestest"
)

// TestShippedEvaluationsGolden pins what the shipped network says on
// every square it plays, bit for bit (the float32 bits of each value and
// prior), on positions of seeded random games of that board: a change to
// the action space, the encoding or the graphs must leave the shipped
// network's evaluations exactly as they were (the golden file changes
// only with the shipped file, -update).
func TestShippedEvaluationsGolden(t *testing.T) {
	var b strings.Builder
	for _, n := range Shipped().Sizes() {
		m, err := Shipped().For(rules.SquareBoard(n))
		if err != nil {
			t.Fatal(err)
		}
		e, err := net.NewEvaluator(m, net.EvalOptions{Batch: 8})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- e.Run(ctx) }()
		ps := rulestest.Positions(rand.New(rand.NewPCG(uint64(n), 43)), n, 24)
		preds, err := e.Evaluate(ctx, ps)
		cancel()
		if rerr := <-done; err == nil {
			err = rerr
		}
		if err != nil {
			t.Fatal(err)
		}
		var buf [rules.MaxMoves]rules.Move
		for i, p := range ps {
			fmt.Fprintf(&b, "%dx%d %d value %08x priors", n, n, i, math.Float32bits(preds[i].Value))
			for j, mv := range p.LegalMoves(buf[:0]) {
				fmt.Fprintf(&b, " %v:%08x", mv, math.Float32bits(preds[i].Policy[j]))
			}
			b.WriteByte('\n')
		}
	}
	golden.Check(t, "evaluations.golden", []byte(b.String()))
}
