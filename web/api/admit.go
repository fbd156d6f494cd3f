package api

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/konanezero/konane/web/messages"
)

// admission bounds the searches running at once by what they cost: the
// budget is capacity simulation units (Config.Searches searches of the
// default level's size; a search weighs its simulations, at most the
// whole budget), up to queue requests wait at most wait each for room,
// in the order they came, and the rest are refused at once. Every client
// (Server.client) has at most perClient requests in flight, and at most
// half the budget in units (running or waiting; its first request
// whatever it weighs), so that one client's long searches cannot take
// every search of a server.
type admission struct {
	capacity  int64
	queue     int
	wait      time.Duration
	perClient int

	mu      sync.Mutex
	used    int64
	waiters []*waiter        // first come, first served
	clients map[string]int   // requests in flight per client
	units   map[string]int64 // their units, running or waiting
	obs     observer
}

type waiter struct {
	weight int64
	ready  chan struct{} // closed when admitted
}

// observer is told of admissions (the metrics); nil fields are skipped.
type observer struct {
	admitted func()
	refused  func(reason string)
	queued   func(n int)
	inFlight func(units int64)
}

func newAdmission(capacity int64, queue int, wait time.Duration, perClient int, obs observer) *admission {
	return &admission{capacity: capacity, queue: queue, wait: wait, perClient: perClient, clients: map[string]int{}, units: map[string]int64{}, obs: obs}
}

// retryAfter is the Retry-After of a refusal: the seconds in which a
// queued request would have had its turn.
func (a *admission) retryAfter() int { return max(1, int(a.wait.Round(time.Second)/time.Second)) }

// busyError is the 503 of a full server, with the seconds to wait.
func (a *admission) busyError() error {
	n := a.retryAfter()
	return &apiError{code: http.StatusServiceUnavailable, retry: n, msg: messages.New("error.busy", "seconds", fmt.Sprint(n))}
}

// acquire admits a search of sims simulations for client, waiting for
// room if need be; call release when it ends. It fails with 429 when the
// client has perClient requests in flight, with 503 when the queue is
// full or the wait is over, and with ctx's error if ctx ends first.
func (a *admission) acquire(ctx context.Context, client string, sims int) (release func(), err error) {
	w := min(int64(sims), a.capacity)
	a.mu.Lock()
	if n := a.clients[client]; n >= a.perClient || n > 0 && a.units[client]+w > a.share() {
		a.mu.Unlock()
		a.refuse("client")
		return nil, &apiError{code: http.StatusTooManyRequests, retry: 1, msg: messages.New("error.clientBusy", "max", fmt.Sprint(n))}
	}
	if len(a.waiters) == 0 && a.used+w <= a.capacity {
		a.used += w
		a.units[client] += w
		a.clients[client]++
		a.report()
		a.mu.Unlock()
		a.note()
		return a.releaser(client, w), nil
	}
	if len(a.waiters) >= a.queue {
		a.mu.Unlock()
		a.refuse("queue")
		return nil, a.busyError()
	}
	wt := &waiter{weight: w, ready: make(chan struct{})}
	a.waiters = append(a.waiters, wt)
	a.clients[client]++ // a waiting request is in flight too
	a.units[client] += w
	a.report()
	a.mu.Unlock()

	timer := time.NewTimer(a.wait)
	defer timer.Stop()
	var why string
	select {
	case <-wt.ready:
		a.note()
		return a.releaser(client, w), nil
	case <-timer.C:
		why = "wait"
	case <-ctx.Done():
		why = "gone"
	}
	a.mu.Lock()
	select {
	case <-wt.ready: // admitted meanwhile: give the room back
		a.used -= w
	default:
		for i, x := range a.waiters {
			if x == wt {
				a.waiters = append(a.waiters[:i], a.waiters[i+1:]...)
				break
			}
		}
	}
	a.leave(client, w)
	a.grant()
	a.report()
	a.mu.Unlock()
	a.refuse(why)
	if why == "gone" {
		return nil, ctx.Err()
	}
	return nil, a.busyError()
}

// releaser returns the release of an admitted request.
func (a *admission) releaser(client string, w int64) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.used -= w
			a.leave(client, w)
			a.grant()
			a.report()
		})
	}
}

// leave counts a request of client, of w units, out; a.mu is held.
func (a *admission) leave(client string, w int64) {
	if a.clients[client]--; a.clients[client] <= 0 {
		delete(a.clients, client)
	}
	if a.units[client] -= w; a.units[client] <= 0 {
		delete(a.units, client)
	}
}

// share is the most units one client may hold: half the budget.
func (a *admission) share() int64 { return max(a.capacity/2, 1) }

// grant admits the waiters at the head of the queue that fit; a.mu is
// held.
func (a *admission) grant() {
	for len(a.waiters) > 0 && a.used+a.waiters[0].weight <= a.capacity {
		wt := a.waiters[0]
		a.waiters = a.waiters[1:]
		a.used += wt.weight
		close(wt.ready)
	}
}

// report tells the observer the queue and the units in use; a.mu is held.
func (a *admission) report() {
	if a.obs.queued != nil {
		a.obs.queued(len(a.waiters))
	}
	if a.obs.inFlight != nil {
		a.obs.inFlight(a.used)
	}
}

func (a *admission) note() {
	if a.obs.admitted != nil {
		a.obs.admitted()
	}
}

func (a *admission) refuse(reason string) {
	if a.obs.refused != nil {
		a.obs.refused(reason)
	}
}
