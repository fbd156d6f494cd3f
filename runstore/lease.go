package runstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/konanezero/konane/internal/lockfile"
)

// A Lease makes one process the only writer of a run (the trainer). It is
// built from create-only writes, so it works on any store:
//
//	lease/epoch-NNNNNNNNNN.json   who took the run, created create-only
//	lease/epoch-NNNNNNNNNN.beat   the holder's heartbeat, rewritten every TTL/3
//
// Acquire creates the next epoch object; of two racing processes only one
// succeeds. It refuses at once while the newest epoch's holder is alive:
// its heartbeat is younger than the TTL (measured on the storage server's
// clock, so that machines' clocks need not agree), it did not release the
// lease, and, when it ran on this machine, its process still exists — so a
// trainer restarted after a crash on the same machine (or in the same
// Kubernetes pod) takes its run back at once, and one restarted elsewhere
// after one TTL. A holder that sees a newer epoch, or could not renew its
// heartbeat within the TTL, has lost the lease: Check then fails, and it
// must not publish anything more (fencing).
//
// On file:// the lock of internal/lockfile on DIR/lock (an flock,
// released by the kernel when the process dies) decides rather than the
// heartbeat's age, and the epochs still fence.
type Lease struct {
	s      *Store
	epoch  int
	ttl    time.Duration
	holder Holder
	lock   *lockfile.Lock

	mu       sync.Mutex
	lastBeat time.Time // local time when the last successful heartbeat was started
	beats    int
}

// Holder identifies the process holding a lease.
type Holder struct {
	Host    string    `json:"host"`
	PID     int       `json:"pid"`
	Started time.Time `json:"started"`
	ID      string    `json:"id"` // random, tells apart two processes with the same host and pid
}

func (h Holder) String() string { return fmt.Sprintf("%s pid %d", h.Host, h.PID) }

// HeldError is the error of Acquire on a run that a live process holds.
type HeldError struct {
	Store  string
	Epoch  int
	Holder Holder
	Age    time.Duration // since the holder's last heartbeat (-1: unknown)
	TTL    time.Duration
}

func (e *HeldError) Error() string {
	age := "unknown"
	if e.Age >= 0 {
		age = e.Age.Round(time.Second).String() + " ago"
	}
	return fmt.Sprintf("runstore: %s is in use by another trainer (%s, epoch %d, last heartbeat %s); it becomes free when that trainer exits or misses its heartbeat for %s",
		e.Store, e.Holder, e.Epoch, age, e.TTL)
}

// LostError is the error of Check and Beat after the lease was lost.
type LostError struct {
	Store  string
	Epoch  int
	Reason string
}

func (e *LostError) Error() string {
	return fmt.Sprintf("runstore: lost the lease of %s (epoch %d): %s; stopping without publishing", e.Store, e.Epoch, e.Reason)
}

const (
	leasePrefix = "lease/epoch-"
	leaseLock   = "lock"
)

// hostname names this machine in lease holders (a variable for tests).
var hostname = func() string { h, _ := os.Hostname(); return h }

func epochKey(e int) string { return fmt.Sprintf("%s%010d.json", leasePrefix, e) }
func beatKey(e int) string  { return fmt.Sprintf("%s%010d.beat", leasePrefix, e) }

type beat struct {
	Epoch    int  `json:"epoch"`
	N        int  `json:"n"`
	Released bool `json:"released,omitempty"`
}

// Acquire takes the lease of the run, or returns a *HeldError if a live
// process holds it. The caller must call Beat at least every TTL/3 (Keep
// does), Check before every write that publishes, and Release at the end.
func (s *Store) Acquire(ctx context.Context, ttl time.Duration) (*Lease, error) {
	host := hostname()
	var id [8]byte
	rand.Read(id[:])
	l := &Lease{s: s, ttl: ttl, holder: Holder{Host: host, PID: os.Getpid(), Started: time.Now().UTC(), ID: hex.EncodeToString(id[:])}}
	newest, err := s.newestEpoch(ctx)
	if err != nil {
		return nil, err
	}
	if s.dir != "" {
		lock, err := lockfile.Acquire(filepath.Join(s.dir, leaseLock))
		var busy *lockfile.BusyError
		if errors.As(err, &busy) {
			he := &HeldError{Store: s.loc, Epoch: newest, Age: -1, TTL: ttl}
			if b, err := s.Read(ctx, epochKey(newest)); err == nil {
				json.Unmarshal(b, &he.Holder)
			}
			if busy.PID > 0 {
				he.Holder.PID = busy.PID
			}
			return nil, he
		}
		if err != nil {
			return nil, fmt.Errorf("runstore: %w", err)
		}
		l.lock = lock
	} else if newest > 0 {
		if err := s.checkFree(ctx, newest, l.holder, ttl); err != nil {
			return nil, err
		}
	}
	l.epoch = newest + 1
	b, _ := json.Marshal(l.holder)
	if err := s.Create(ctx, epochKey(l.epoch), b); err != nil {
		l.unlock()
		if errors.Is(err, ErrExist) {
			return nil, &HeldError{Store: s.loc, Epoch: l.epoch, Age: 0, TTL: ttl, Holder: Holder{Host: "another process"}}
		}
		return nil, err
	}
	if err := l.Beat(ctx); err != nil {
		l.unlock()
		return nil, err
	}
	return l, nil
}

// checkFree returns a *HeldError if the holder of epoch e is alive.
func (s *Store) checkFree(ctx context.Context, e int, me Holder, ttl time.Duration) error {
	var h Holder
	if b, err := s.Read(ctx, epochKey(e)); err == nil {
		json.Unmarshal(b, &h)
	} else if !errors.Is(err, ErrNotExist) {
		return err
	}
	var bt beat
	key := beatKey(e)
	b, err := s.Read(ctx, key)
	switch {
	case errors.Is(err, ErrNotExist):
		key = epochKey(e) // taken but not beaten yet: its age counts from the taking
	case err != nil:
		return err
	default:
		json.Unmarshal(b, &bt)
	}
	if bt.Released {
		return nil
	}
	if h.Host == me.Host && h.Host != "" && (h.PID == me.PID || !processAlive(h.PID)) {
		return nil // a crashed holder on this machine (or in this pod)
	}
	age, err := s.age(ctx, key)
	if err != nil {
		return err
	}
	if age >= ttl {
		return nil
	}
	return &HeldError{Store: s.loc, Epoch: e, Holder: h, Age: age, TTL: ttl}
}

// age returns how long ago key was last written, on the storage's clock:
// it writes a probe object and compares modification times.
func (s *Store) age(ctx context.Context, key string) (time.Duration, error) {
	objs, err := s.List(ctx, key)
	if err != nil {
		return 0, err
	}
	if len(objs) == 0 || objs[0].Key != key {
		return 0, &OpError{"read", s.loc, key, ErrNotExist}
	}
	var id [8]byte
	rand.Read(id[:])
	probe := "lease/clock-" + hex.EncodeToString(id[:])
	if err := s.Put(ctx, probe, nil); err != nil {
		return 0, err
	}
	defer s.Delete(context.WithoutCancel(ctx), probe)
	now, err := s.List(ctx, probe)
	if err != nil {
		return 0, err
	}
	if len(now) == 0 {
		return 0, &OpError{"read", s.loc, probe, ErrNotExist}
	}
	return max(now[0].ModTime.Sub(objs[0].ModTime), 0), nil
}

// newestEpoch returns the highest lease epoch taken so far (0: none).
func (s *Store) newestEpoch(ctx context.Context) (int, error) {
	objs, err := s.List(ctx, leasePrefix)
	if err != nil {
		return 0, err
	}
	newest := 0
	for _, o := range objs {
		name, ok := strings.CutSuffix(strings.TrimPrefix(o.Key, leasePrefix), ".json")
		if n, err := strconv.Atoi(name); ok && err == nil && n > newest {
			newest = n
		}
	}
	return newest, nil
}

// Epoch returns the lease's epoch, which grows with every taking of the run.
func (l *Lease) Epoch() int { return l.epoch }

// TTL returns the lease's time to live without a heartbeat.
func (l *Lease) TTL() time.Duration { return l.ttl }

// Beat renews the lease, or returns a *LostError if a newer epoch exists.
func (l *Lease) Beat(ctx context.Context) error {
	start := time.Now()
	if err := l.checkEpoch(ctx); err != nil {
		return err
	}
	l.mu.Lock()
	l.beats++
	b, _ := json.Marshal(beat{Epoch: l.epoch, N: l.beats})
	l.mu.Unlock()
	if err := l.s.Put(ctx, beatKey(l.epoch), b); err != nil {
		return err
	}
	l.mu.Lock()
	l.lastBeat = start
	l.mu.Unlock()
	return nil
}

// Keep beats every TTL/3 until ctx is done (returning nil) or the lease is
// lost (returning the *LostError). Transient failures are retried at the
// next beat; Check fails once no beat succeeded for a TTL.
func (l *Lease) Keep(ctx context.Context) error {
	t := time.NewTicker(l.ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		var lost *LostError
		if err := l.Beat(ctx); errors.As(err, &lost) {
			return err
		}
	}
}

// Check returns nil if the lease is still held: a heartbeat succeeded
// within the last TTL (less a safety margin) and no newer epoch exists.
// Call it right before every write that publishes.
func (l *Lease) Check(ctx context.Context) error {
	l.mu.Lock()
	since := time.Since(l.lastBeat)
	l.mu.Unlock()
	if l.lock == nil && since > l.ttl*3/4 {
		return &LostError{l.s.loc, l.epoch, fmt.Sprintf("no heartbeat could be written for %s", since.Round(time.Second))}
	}
	return l.checkEpoch(ctx)
}

func (l *Lease) checkEpoch(ctx context.Context) error {
	newest, err := l.s.newestEpoch(ctx)
	if err != nil {
		return err
	}
	if newest > l.epoch {
		var h Holder
		if b, err := l.s.Read(ctx, epochKey(newest)); err == nil {
			json.Unmarshal(b, &h)
		}
		return &LostError{l.s.loc, l.epoch, fmt.Sprintf("%s took the run (epoch %d)", h, newest)}
	}
	return nil
}

// Release gives the lease up, so that the next trainer takes the run at once.
func (l *Lease) Release(ctx context.Context) error {
	defer l.unlock()
	if err := l.checkEpoch(ctx); err != nil {
		return nil // already someone else's
	}
	b, _ := json.Marshal(beat{Epoch: l.epoch, N: l.beats + 1, Released: true})
	return l.s.Put(ctx, beatKey(l.epoch), b)
}

func (l *Lease) unlock() {
	if l.lock != nil {
		l.lock.Release()
		l.lock = nil
	}
}
