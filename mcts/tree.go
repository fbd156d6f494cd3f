package mcts

// The tree lives in two slices owned by one Search: nodes, addressed by
// int32 index (the root is always index 0), and edges, one per legal move
// of every expanded node, stored contiguously per node. A node is created
// only when a simulation first reaches it, so a move that was never tried
// costs one 12-byte edge and no node.

// node states.
const (
	stateNew      uint8 = iota // created, not yet sent to the evaluator
	statePending               // in the current evaluator batch
	stateExpanded              // evaluated; its edges exist
	stateTerminal              // no legal move: the side to move has lost
)

// node is one position of the tree.
type node[P, M any] struct {
	pos P
	// w is the sum of the values backed up through this node, seen by the
	// player who moved into it (the parent's side to move), so that a
	// parent maximizes w/n over its children.
	w float64
	// n counts completed visits; vl counts visits in flight (virtual
	// losses, each a provisional loss for the player who moved here).
	n, vl int32
	// first indexes the node's first edge; nEdges is its number of moves.
	first  int32
	value  float32 // the evaluator's value for the side to move (-1 if terminal)
	nEdges uint16
	state  uint8
	// proof is the node's exact value for the side to move when known
	// (Config.Solver): +1 won, -1 lost, 0 not proven. A terminal node is
	// lost. A node can be proven before it is expanded (by the endgame
	// solver); then win, for a won node, is a winning move.
	proof int8
	win   M
}

// edge is one legal move of an expanded node.
type edge[M any] struct {
	move  M
	prior float32 // the evaluator's prior (without root noise)
	child int32   // node index, 0 while no simulation has taken this move
}

// tree is the storage of a Search.
type tree[P position[P, M], M comparable] struct {
	nodes []node[P, M]
	edges []edge[M]
	// none is the move that is never legal (NoMove, NoWideMove): a
	// node's win until it is proven won.
	none M
	// solver turns on the use of proofs (Config.Solver).
	solver bool
	// spare buffers receive the kept subtree when the root moves.
	spareNodes []node[P, M]
	spareEdges []edge[M]
	queue      []int32
}

// reset empties the tree and makes pos its (unexpanded) root.
func (t *tree[P, M]) reset(pos P) {
	t.nodes = append(t.nodes[:0], node[P, M]{pos: pos, win: t.none})
	t.edges = t.edges[:0]
}

// newChild creates the node reached by edge e of node parent and returns
// its index. A position without legal moves is terminal at once.
func (t *tree[P, M]) newChild(parent int32, e int32) int32 {
	pos := t.nodes[parent].pos.Play(t.edges[e].move)
	nd := node[P, M]{pos: pos, win: t.none}
	if !pos.HasMoves() {
		nd.state, nd.value, nd.proof = stateTerminal, -1, -1
	}
	idx := int32(len(t.nodes))
	t.nodes = append(t.nodes, nd)
	t.edges[e].child = idx
	return idx
}

// findDescendant returns the index of a node at depth ≤ 2 below the root
// whose position is pos, or -1.
func (t *tree[P, M]) findDescendant(pos P) int32 {
	if len(t.nodes) == 0 {
		return -1
	}
	if t.nodes[0].pos == pos {
		return 0
	}
	root := &t.nodes[0]
	if root.state != stateExpanded {
		return -1
	}
	for _, e := range t.edges[root.first : root.first+int32(root.nEdges)] {
		if e.child == 0 {
			continue
		}
		c := &t.nodes[e.child]
		if c.pos == pos {
			return e.child
		}
		if c.state != stateExpanded {
			continue
		}
		for _, g := range t.edges[c.first : c.first+int32(c.nEdges)] {
			if g.child != 0 && t.nodes[g.child].pos == pos {
				return g.child
			}
		}
	}
	return -1
}

// promote makes node r the root, keeping only its subtree (copied
// breadth-first into the spare buffers, which then become the tree).
func (t *tree[P, M]) promote(r int32) {
	if r == 0 {
		return
	}
	nodes, edges := t.spareNodes[:0], t.spareEdges[:0]
	nodes = append(nodes, t.nodes[r])
	t.queue = append(t.queue[:0], 0) // indices into the new nodes
	for head := 0; head < len(t.queue); head++ {
		nd := &nodes[t.queue[head]]
		if nd.state != stateExpanded {
			continue
		}
		oldFirst := nd.first
		nd.first = int32(len(edges))
		edges = append(edges, t.edges[oldFirst:oldFirst+int32(nd.nEdges)]...)
		for k := nd.first; k < int32(len(edges)); k++ {
			if old := edges[k].child; old != 0 {
				edges[k].child = int32(len(nodes))
				t.queue = append(t.queue, int32(len(nodes)))
				nodes = append(nodes, t.nodes[old])
			}
		}
	}
	t.spareNodes, t.spareEdges = t.nodes, t.edges
	t.nodes, t.edges = nodes, edges
}

// children returns the edges of an expanded node.
func (t *tree[P, M]) children(i int32) []edge[M] {
	nd := &t.nodes[i]
	return t.edges[nd.first : nd.first+int32(nd.nEdges)]
}

// childStats returns the visits (completed plus in flight) and the mean
// value, for the player choosing the move, of the child behind edge e;
// in-flight visits count as losses. visits is 0 for an untried move.
// With proofs on, a proven child's value is exact, whatever its visits.
func (t *tree[P, M]) childStats(e *edge[M]) (visits int32, q float64) {
	if e.child == 0 {
		return 0, 0
	}
	c := &t.nodes[e.child]
	n := c.n + c.vl
	if t.solver && c.proof != 0 {
		return n, float64(-c.proof)
	}
	if n == 0 {
		return 0, 0
	}
	return n, (c.w - float64(c.vl)) / float64(n)
}

// provenLoss reports whether the move behind edge e is proven to lose
// for the player who makes it (its child is proven won for the opponent).
func (t *tree[P, M]) provenLoss(e *edge[M]) bool {
	return t.solver && e.child != 0 && t.nodes[e.child].proof > 0
}

// provenWin reports whether the move behind edge e is proven to win.
func (t *tree[P, M]) provenWin(e *edge[M]) bool {
	return t.solver && e.child != 0 && t.nodes[e.child].proof < 0
}
