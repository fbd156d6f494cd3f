package web

import (
	"crypto/rand"
	"sync"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/rules"
)

// session is one game in progress. Its lock is held for the whole of a
// request on it, the agent's thinking included, so that requests on one
// game are handled one at a time while other games go on.
type session struct {
	id string

	mu    sync.Mutex
	human rules.Color
	level agent.Level
	agent *agent.Agent
	game  *agent.Game
	// fixed is the number of moves the game started from (a game played
	// on from a position): they are not the human's to take back.
	fixed int
	// evals[i] is the analysis behind move i when the agent played it
	// (nil for the human's moves and the fixed ones).
	evals []*agent.Analysis
}

// eval is the analysis behind the agent's last move still on the board,
// or nil if it has not moved.
func (ss *session) eval() *agent.Analysis {
	for i := len(ss.evals) - 1; i >= 0; i-- {
		if ss.evals[i] != nil {
			return ss.evals[i]
		}
	}
	return nil
}

// play plays m with the analysis behind it (nil for the human's move).
func (ss *session) play(m rules.Move, an *agent.Analysis) error {
	if err := ss.game.Play(m); err != nil {
		return err
	}
	ss.evals = append(ss.evals, an)
	return nil
}

// undoLast takes back the last move.
func (ss *session) undoLast() {
	if _, ok := ss.game.Undo(); ok {
		ss.evals = ss.evals[:len(ss.evals)-1]
	}
}

// canUndo reports whether the human has a move to take back: one of
// theirs after the fixed moves.
func (ss *session) canUndo() bool {
	last := ss.game.Len() - 1
	if last >= 0 && rules.Color(last%2) != ss.human { // Black makes the even-numbered moves
		last--
	}
	return last >= ss.fixed
}

// takeBack takes back the human's last move and the reply, if canUndo.
func (ss *session) takeBack() bool {
	if !ss.canUndo() {
		return false
	}
	ss.game.TakeBack(ss.human)
	ss.evals = ss.evals[:ss.game.Len()]
	return true
}

// newSessionID returns an unguessable id: a game is reachable by whoever
// knows its id, so ids come from crypto/rand, not from the seeded
// generator of the games.
func newSessionID() string { return rand.Text() }

// store holds the sessions: at most max in all and perClient per client
// address, each dropped after idle without a request, or after fresh if
// the human has not moved in it yet (so that games opened and left do
// not hold the store for long).
type store struct {
	mu        sync.Mutex
	sessions  map[string]*entry
	max       int
	perClient int
	idle      time.Duration
	fresh     time.Duration
	now       func() time.Time
}

type entry struct {
	s      *session
	used   time.Time
	client string // the address the game was created from
	played bool   // the human has moved in it
}

func newStore(max, perClient int, idle, fresh time.Duration, now func() time.Time) *store {
	return &store{sessions: map[string]*entry{}, max: max, perClient: perClient, idle: idle, fresh: fresh, now: now}
}

// Results of store.add.
const (
	added      = iota
	storeFull  // the store holds max games
	clientFull // the client holds perClient games
)

// add stores s for client, unless the store or the client's share of it
// is full even after dropping the expired sessions.
func (st *store) add(s *session, client string) int {
	st.mu.Lock()
	defer st.mu.Unlock()
	count := func() (all, mine int) {
		for _, e := range st.sessions {
			if e.client == client {
				mine++
			}
		}
		return len(st.sessions), mine
	}
	all, mine := count()
	if all >= st.max || mine >= st.perClient {
		st.expireLocked()
		all, mine = count()
	}
	switch {
	case all >= st.max:
		return storeFull
	case mine >= st.perClient:
		return clientFull
	}
	st.sessions[s.id] = &entry{s: s, used: st.now(), client: client}
	return added
}

// get returns the session of id and marks it used.
func (st *store) get(id string) (*session, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	e, ok := st.sessions[id]
	if !ok {
		return nil, false
	}
	e.used = st.now()
	return e.s, true
}

// played records that the human moved in the game of id: it now expires
// after the idle time instead of the shorter fresh one.
func (st *store) played(id string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if e, ok := st.sessions[id]; ok {
		e.played = true
	}
}

// remove drops the session of id.
func (st *store) remove(id string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	delete(st.sessions, id)
}

func (st *store) len() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.sessions)
}

// expire drops the sessions idle for longer than their timeout.
func (st *store) expire() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.expireLocked()
}

func (st *store) expireLocked() int {
	n := 0
	now := st.now()
	for id, e := range st.sessions {
		limit := st.idle
		if !e.played {
			limit = st.fresh
		}
		if now.Sub(e.used) > limit {
			delete(st.sessions, id)
			n++
		}
	}
	return n
}
