package net

import (
	"sync"
	"sync/atomic"

	"github.com/konanezero/konane/mcts"
)

// cache remembers the predictions of recent positions, keyed by the rules
// hash and checked against the full position, so that a hash collision
// can never return another position's prediction. It holds at most
// capacity entries and evicts the oldest first. It is safe for concurrent
// use.
type cache[P comparable] struct {
	mu       sync.Mutex
	capacity int
	entries  map[uint64]cacheEntry[P]
	order    []uint64 // ring of keys in insertion order
	next     int      // ring position of the next insertion

	lookups, hits atomic.Int64
}

type cacheEntry[P comparable] struct {
	pos  P
	pred mcts.Prediction // Policy is never modified once stored
}

func newCache[P comparable](capacity int) *cache[P] {
	return &cache[P]{capacity: capacity, entries: make(map[uint64]cacheEntry[P], capacity), order: make([]uint64, 0, capacity)}
}

// get returns a copy of the prediction of p, whose hash is key
// (Position.Hash, WidePosition.Hash), if present.
func (c *cache[P]) get(key uint64, p P) (mcts.Prediction, bool) {
	if c.capacity == 0 {
		return mcts.Prediction{}, false
	}
	c.lookups.Add(1)
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if !ok || e.pos != p {
		return mcts.Prediction{}, false
	}
	c.hits.Add(1)
	return mcts.Prediction{Policy: append([]float32(nil), e.pred.Policy...), Value: e.pred.Value}, true
}

// put stores a copy of the prediction of p, whose hash is key.
func (c *cache[P]) put(key uint64, p P, pred mcts.Prediction) {
	if c.capacity == 0 {
		return
	}
	pred.Policy = append([]float32(nil), pred.Policy...)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; ok {
		c.entries[key] = cacheEntry[P]{p, pred}
		return
	}
	if len(c.order) < c.capacity {
		c.order = append(c.order, key)
	} else {
		delete(c.entries, c.order[c.next])
		c.order[c.next] = key
		c.next = (c.next + 1) % c.capacity
	}
	c.entries[key] = cacheEntry[P]{p, pred}
}

// clear removes every entry (the counters stay).
func (c *cache[P]) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.entries)
	c.order = c.order[:0]
	c.next = 0
}

// len returns the number of entries.
func (c *cache[P]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}
