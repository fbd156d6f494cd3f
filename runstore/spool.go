package runstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/internal/lockfile"
)

// A Spool is a worker's local directory of finished work waiting to be
// uploaded: each entry is written atomically before any upload starts and
// removed only after its upload succeeded, so that a worker killed at any
// moment loses nothing that reached its spool. One process at a time owns
// a spool (an flock held while it is open).
type Spool struct {
	dir  string
	lock *lockfile.Lock
}

// SpoolLockedError is returned by OpenSpool when another process owns the
// spool directory.
type SpoolLockedError struct {
	Dir string
	PID int // the other worker's process id (0: unknown)
}

func (e *SpoolLockedError) Error() string {
	return fmt.Sprintf("runstore: spool %s is in use by another worker (pid %d); give each worker its own --spool", e.Dir, e.PID)
}

const spoolLock = ".lock"

// OpenSpool opens (creating if needed) and locks the spool directory dir,
// and deletes the temporary files of an interrupted write.
func OpenSpool(dir string) (*Spool, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("runstore: spool: %w", err)
	}
	lock, err := lockfile.Acquire(filepath.Join(dir, spoolLock))
	var busy *lockfile.BusyError
	if errors.As(err, &busy) {
		return nil, &SpoolLockedError{Dir: dir, PID: busy.PID}
	}
	if err != nil {
		return nil, fmt.Errorf("runstore: spool: %w", err)
	}
	names, _ := os.ReadDir(dir)
	for _, e := range names {
		if n := e.Name(); n != spoolLock && strings.HasPrefix(n, ".") {
			os.Remove(filepath.Join(dir, n)) // an atomicfile temp file
		}
	}
	return &Spool{dir: dir, lock: lock}, nil
}

// Dir returns the spool's directory.
func (s *Spool) Dir() string { return s.dir }

// Close releases the spool's lock.
func (s *Spool) Close() error { return s.lock.Release() }

// Add writes an entry atomically (synced to disk before it is visible).
// Names are flat file names without a leading dot.
func (s *Spool) Add(name string, data []byte) error {
	if err := checkSpoolName(name); err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(s.dir, name), data, 0o644)
}

// Pending lists the entries not yet removed, sorted by name.
func (s *Spool) Pending() ([]string, error) {
	es, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("runstore: spool: %w", err)
	}
	var out []string
	for _, e := range es {
		if !e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out, nil
}

// Read returns an entry's content.
func (s *Spool) Read(name string) ([]byte, error) {
	if err := checkSpoolName(name); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(s.dir, name))
	if err != nil {
		return nil, fmt.Errorf("runstore: spool: %w", err)
	}
	return b, nil
}

// Remove deletes an entry (after its upload succeeded).
func (s *Spool) Remove(name string) error {
	if err := checkSpoolName(name); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(s.dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("runstore: spool: %w", err)
	}
	return nil
}

func checkSpoolName(name string) error {
	if name == "" || strings.HasPrefix(name, ".") || strings.ContainsAny(name, `/\`) {
		return fmt.Errorf("runstore: spool entry name %q: want a plain file name", name)
	}
	return nil
}
