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
	// eval is the analysis behind the agent's last move (nil before its
	// first, and after an undo).
	eval *agent.Analysis
}

// newSessionID returns an unguessable id: a game is reachable by whoever
// knows its id, so ids come from crypto/rand, not from the seeded
// generator of the games.
func newSessionID() string { return rand.Text() }

// store holds the sessions, at most max, each dropped after idle without
// a request.
type store struct {
	mu       sync.Mutex
	sessions map[string]*entry
	max      int
	idle     time.Duration
	now      func() time.Time
}

type entry struct {
	s    *session
	used time.Time
}

func newStore(max int, idle time.Duration, now func() time.Time) *store {
	return &store{sessions: map[string]*entry{}, max: max, idle: idle, now: now}
}

// add stores s; false when the store is full even after dropping the
// idle sessions.
func (st *store) add(s *session) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.sessions) >= st.max {
		st.expireLocked()
	}
	if len(st.sessions) >= st.max {
		return false
	}
	st.sessions[s.id] = &entry{s: s, used: st.now()}
	return true
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

// expire drops the sessions idle for longer than the idle timeout.
func (st *store) expire() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.expireLocked()
}

func (st *store) expireLocked() int {
	n := 0
	limit := st.now().Add(-st.idle)
	for id, e := range st.sessions {
		if e.used.Before(limit) {
			delete(st.sessions, id)
			n++
		}
	}
	return n
}
