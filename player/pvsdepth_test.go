package player

import (
	"context"
	"flag"
	"fmt"
	"math/bits"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/rules"
)

var (
	depthPositions = flag.Int("pvs.depthdist", 0, "TestPVSDepthReached: number of 8x8 middle-game positions (0: skip)")
	depthTime      = flag.Duration("pvs.depthtime", time.Second, "TestPVSDepthReached: time per search")
)

// middleGame returns n 8x8 middle-game positions: from games of the PVS
// engine at depth 4 against itself (different seeds), the position after
// 10 to 29 jumps.
func middleGame(n int) []rules.Position {
	var out []rules.Position
	for g := 0; len(out) < n; g++ {
		a, b := newPVS(4, 0, uint64(2*g), 16, pvsSolverEntries), newPVS(4, 0, uint64(2*g+1), 16, pvsSolverEntries)
		p := rules.NewPosition(8)
		target := 2 + 10 + (g*7)%20
		for ply := 0; ply < target && p.HasMoves(); ply++ {
			e := a
			if ply%2 == 1 {
				e = b
			}
			p = p.Play(e.Search(context.Background(), p, 4).PV[0])
		}
		if p.HasMoves() {
			out = append(out, p)
		}
	}
	return out
}

// TestPVSDepthReached measures the depth the engine completes in
// -pvs.depthtime on 8x8 middle-game positions and logs the distribution:
//
//	go test ./player -run TestPVSDepthReached -v -pvs.depthdist 40
func TestPVSDepthReached(t *testing.T) {
	if *depthPositions == 0 {
		t.Skip("-pvs.depthdist not set")
	}
	hist := map[int]int{}
	var depths []int
	var nodes uint64
	var elapsed time.Duration
	for i, p := range middleGame(*depthPositions) {
		e := NewPVS(0, *depthTime, uint64(i))
		start := time.Now()
		r := e.Search(context.Background(), p, 0)
		elapsed += time.Since(start)
		nodes += r.Nodes
		d := r.Depth
		if solved, _, _ := r.Solved(); solved {
			d = -1 // solved: no depth limit applies
		}
		hist[d]++
		depths = append(depths, d)
		t.Logf("position %d: %d stones, %s, %d nodes", i, bits.OnesCount64(p.Black|p.White), r, r.Nodes)
	}
	sort.Ints(depths)
	var keys []int
	for d := range hist {
		keys = append(keys, d)
	}
	sort.Ints(keys)
	var sb strings.Builder
	for _, d := range keys {
		label := fmt.Sprint(d)
		if d == -1 {
			label = "solved"
		}
		fmt.Fprintf(&sb, " %s:%d", label, hist[d])
	}
	t.Logf("depth reached in %v over %d positions:%s; median %d; %.0f nodes/s",
		*depthTime, len(depths), sb.String(), depths[len(depths)/2], float64(nodes)/elapsed.Seconds())
}
