package api

import (
	"context"
	"sync"

	"github.com/konanezero/konane/analysis"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// openingsJSON is GET /api/v2/openings?size=N: what the agent (and the
// solver, up to analysis.MaxExactOpenings) says of every pair of opening
// removals of the board, as `konane openings` prints it.
type openingsJSON struct {
	Size     int           `json:"size"`
	Sims     int           `json:"sims"` // simulations per opening
	Openings []openingJSON `json:"openings"`
	// Choice is the agent's removal for Black (analysis.BestRemoval), with
	// the least chance it leaves Black whatever White removes.
	Choice      string  `json:"choice"`
	ChoiceWorst float64 `json:"choiceWorst"`
	// Solved tells whether every opening has its exact result; then
	// Winner is the side that wins the game with perfect play, Winning
	// the removals that win it for Black (none when White wins), and
	// Agree how many openings the agent's view (Black above 50%) gets
	// right.
	Solved  bool     `json:"solved"`
	Winner  string   `json:"winner,omitempty"`
	Winning []string `json:"winning,omitempty"`
	Agree   int      `json:"agree,omitempty"`
}

// openingJSON is one pair of removals: Black's, then White's.
type openingJSON struct {
	Black        string   `json:"black"`
	White        string   `json:"white"`
	BlackWinrate float64  `json:"blackWinrate"` // the agent's
	PV           []string `json:"pv"`           // the line it expects, Black's first jump first
	Exact        string   `json:"exact,omitempty"`
}

// openingsCache keeps each size's table: the model does not change while
// the server runs. A table is computed once at a time; a failed one is
// not kept.
type openingsCache struct {
	mu       sync.Mutex
	tables   map[int]*openingsJSON
	busy     map[int]chan struct{} // closed when the size's computation ends
	progress map[int][2]int        // the running computations' openings searched, of how many
}

// openingsProgressJSON is GET /api/v2/openings?size=N&progress=1: whether
// the size's table is ready, or being computed and how far: Done of the
// Total openings searched (then each is solved exactly, up to
// analysis.MaxExactOpenings).
type openingsProgressJSON struct {
	Size      int  `json:"size"`
	Ready     bool `json:"ready"`
	Computing bool `json:"computing"`
	Done      int  `json:"done"`
	Total     int  `json:"total"`
}

// setProgress notes that the computation of size's table has searched
// done of total openings.
func (c *openingsCache) setProgress(size, done, total int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.progress == nil {
		c.progress = map[int][2]int{}
	}
	c.progress[size] = [2]int{done, total}
}

// progressOf says how far size's table is.
func (c *openingsCache) progressOf(size int) openingsProgressJSON {
	c.mu.Lock()
	defer c.mu.Unlock()
	pr := openingsProgressJSON{Size: size, Ready: c.tables[size] != nil}
	if _, running := c.busy[size]; running {
		pr.Computing = true
		pr.Done, pr.Total = c.progress[size][0], c.progress[size][1]
	}
	return pr
}

// get returns the table of size: the one kept, else compute's (which
// runs for one request of the size at a time, the others waiting for
// it, until ctx ends), kept if it succeeds.
func (c *openingsCache) get(ctx context.Context, size int, compute func() (*openingsJSON, error)) (*openingsJSON, error) {
	for {
		c.mu.Lock()
		if t := c.tables[size]; t != nil {
			c.mu.Unlock()
			return t, nil
		}
		wait, running := c.busy[size]
		if !running {
			if c.busy == nil {
				c.busy, c.tables = map[int]chan struct{}{}, map[int]*openingsJSON{}
			}
			wait = make(chan struct{})
			c.busy[size] = wait
		}
		c.mu.Unlock()
		if running { // another request computes it: wait, then look again
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		t, err := compute()
		c.mu.Lock()
		if err == nil {
			c.tables[size] = t
		}
		delete(c.busy, size)
		delete(c.progress, size)
		close(wait)
		c.mu.Unlock()
		return t, err
	}
}

// openingsOf puts analysis.Openings' result into the form of the API.
func openingsOf(size, sims int, ops []analysis.Opening) *openingsJSON {
	out := &openingsJSON{Size: size, Sims: sims, Openings: []openingJSON{}, Solved: len(ops) > 0}
	var res []solver.OpeningResult
	for _, o := range ops {
		j := openingJSON{Black: o.Black.String(), White: o.White.String(), BlackWinrate: round3(o.WinProb), PV: rules.MoveStrings(o.PV)}
		switch o.Exact {
		case analysis.Won:
			j.Exact = "black"
		case analysis.Lost:
			j.Exact = "white"
		default:
			out.Solved = false
		}
		if j.Exact != "" && (o.WinProb > 0.5) == (o.Exact == analysis.Won) {
			out.Agree++
		}
		if j.PV == nil {
			j.PV = []string{}
		}
		out.Openings = append(out.Openings, j)
		res = append(res, solver.OpeningResult{Opening: rules.Opening{Black: o.Black, White: o.White}, BlackWins: o.Exact == analysis.Won})
	}
	if b, worst := analysis.BestRemoval(ops); b != rules.NoMove {
		out.Choice, out.ChoiceWorst = b.String(), round3(worst)
	}
	if out.Solved {
		out.Winner = "white"
		for _, b := range solver.WinningRemovals(res) {
			out.Winning = append(out.Winning, b.String())
			out.Winner = "black"
		}
	} else {
		out.Agree = 0
	}
	return out
}
