package net_test

import (
	"context"
	"fmt"
	"log"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"golang.org/x/sync/errgroup"
)

// The evaluator batches the positions of concurrent callers; its Run
// goroutine lives in an errgroup and stops with the context.
func ExampleEvaluator() {
	m, err := net.New(net.DefaultConfig(6), 1)
	if err != nil {
		log.Fatal(err)
	}
	e, err := net.NewEvaluator(m, net.DefaultEvalOptions())
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return e.Run(gctx) })

	start := rules.NewPosition(6)
	preds, err := e.Evaluate(ctx, []rules.Position{start})
	if err != nil {
		log.Fatal(err)
	}
	var moves [rules.MaxMoves]rules.Move
	legal := start.LegalMoves(moves[:0])
	var sum float32
	for _, p := range preds[0].Policy {
		sum += p
	}
	fmt.Printf("%d legal moves, %d priors summing to %.3f\n", len(legal), len(preds[0].Policy), sum)
	cancel()
	if err := g.Wait(); err != nil {
		log.Fatal(err)
	}
	// Output: 4 legal moves, 4 priors summing to 1.000
}
