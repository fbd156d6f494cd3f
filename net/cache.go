package net

import (
	"sync"
	"sync/atomic"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/rules"
)

// cache remembers the predictions of recent positions, keyed by the rules
// hash and checked against the full position, so that a hash collision
// can never return another position's prediction. It holds at most
// capacity entries and evicts the oldest first. It is safe for concurrent
// use.
type cache struct {
	mu       sync.Mutex
	capacity int
	entries  map[uint64]cacheEntry
	order    []uint64 // ring of keys in insertion order
	next     int      // ring position of the next insertion

	lookups, hits atomic.Int64
}

type cacheEntry struct {
	pos  rules.Position
	pred mcts.Prediction // Policy is never modified once stored
}

func newCache(capacity int) *cache {
	return &cache{capacity: capacity, entries: make(map[uint64]cacheEntry, capacity), order: make([]uint64, 0, capacity)}
}

// get returns a copy of the prediction of p, if present.
func (c *cache) get(p rules.Position) (mcts.Prediction, bool) {
	if c.capacity == 0 {
		return mcts.Prediction{}, false
	}
	c.lookups.Add(1)
	c.mu.Lock()
	e, ok := c.entries[p.Hash()]
	c.mu.Unlock()
	if !ok || e.pos != p {
		return mcts.Prediction{}, false
	}
	c.hits.Add(1)
	return mcts.Prediction{Policy: append([]float32(nil), e.pred.Policy...), Value: e.pred.Value}, true
}

// put stores a copy of the prediction of p.
func (c *cache) put(p rules.Position, pred mcts.Prediction) {
	if c.capacity == 0 {
		return
	}
	pred.Policy = append([]float32(nil), pred.Policy...)
	key := p.Hash()
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; ok {
		c.entries[key] = cacheEntry{p, pred}
		return
	}
	if len(c.order) < c.capacity {
		c.order = append(c.order, key)
	} else {
		delete(c.entries, c.order[c.next])
		c.order[c.next] = key
		c.next = (c.next + 1) % c.capacity
	}
	c.entries[key] = cacheEntry{p, pred}
}

// clear removes every entry (the counters stay).
func (c *cache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.entries)
	c.order = c.order[:0]
	c.next = 0
}

// len returns the number of entries.
func (c *cache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}
