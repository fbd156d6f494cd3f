package api

import (
	"container/list"
	"sync"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/rules"
)

// trees is the replica's cache of search trees: the agent that last moved
// in a game, kept under the position it left (the human to move), on the
// wide layout, which holds every board, so that
// the search of its next move in that game starts from the subtree it
// already built, as when a server kept its games. It is only a cache: a
// game whose agent is not in it (evicted, or another replica's) gets a
// fresh one. It holds at most max agents, the least recently used going
// first; an agent is taken out while it searches (an Agent is not safe
// for concurrent use), so two requests never share one.
type trees struct {
	mu    sync.Mutex
	max   int
	order *list.List                           // of *treeEntry, the most recently used first
	byPos map[rules.WidePosition]*list.Element // positions of every board on the wide layout
	hits  func(hit bool)                       // told of every take; nil = nobody
}

type treeEntry struct {
	pos rules.WidePosition
	a   *agent.Agent
}

func newTrees(max int, hits func(bool)) *trees {
	return &trees{max: max, order: list.New(), byPos: map[rules.WidePosition]*list.Element{}, hits: hits}
}

// take removes and returns the agent kept under p, or nil.
func (t *trees) take(p rules.WidePosition) *agent.Agent {
	if t.max <= 0 {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.byPos[p]
	if t.hits != nil {
		t.hits(ok)
	}
	if !ok {
		return nil
	}
	t.order.Remove(e)
	delete(t.byPos, p)
	return e.Value.(*treeEntry).a
}

// put keeps a under p (replacing what was there), dropping the least
// recently used agents beyond max.
func (t *trees) put(p rules.WidePosition, a *agent.Agent) {
	if t.max <= 0 || a == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if e, ok := t.byPos[p]; ok {
		t.order.Remove(e)
	}
	t.byPos[p] = t.order.PushFront(&treeEntry{pos: p, a: a})
	for t.order.Len() > t.max {
		last := t.order.Back()
		t.order.Remove(last)
		delete(t.byPos, last.Value.(*treeEntry).pos)
	}
}

// len is the number of agents kept.
func (t *trees) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.order.Len()
}
