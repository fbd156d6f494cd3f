package lockfile

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Lock is a held lock; Release gives it up.
type Lock struct {
	f    *os.File
	path string
}

// BusyError says that another holder has the lock.
type BusyError struct {
	Path string
	PID  int // the holder's process id, 0 if unknown
}

func (e *BusyError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("lockfile: %s is held by process %d", e.Path, e.PID)
	}
	return fmt.Sprintf("lockfile: %s is held by another process", e.Path)
}

// Acquire takes the lock on path (created if missing) without waiting. If
// another holder has it, the error is a *BusyError. Locks are per open
// file: a second Acquire of the same path fails even within one process.
func Acquire(path string) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lockfile: %w", err)
	}
	ok, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lockfile: %s: %w", path, err)
	}
	if !ok {
		b := make([]byte, 32)
		n, _ := f.ReadAt(b, 0)
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b[:n])))
		f.Close()
		return nil, &BusyError{Path: path, PID: pid}
	}
	// The holder's pid, for the message of the next one who tries.
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Lock{f: f, path: path}, nil
}

// Release gives the lock up. It is safe to call more than once.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing the descriptor drops the lock
	l.f = nil
	if err != nil {
		return fmt.Errorf("lockfile: %s: %w", l.path, err)
	}
	return nil
}
