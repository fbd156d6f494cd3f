package lockfile

import (
	"errors"
	"fmt"
	"io/fs"
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
		pid, _ := readHolder(f)
		f.Close()
		return nil, &BusyError{Path: path, PID: pid}
	}
	// The holder's pid, for the message of the next one who tries.
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+" "+hostname()+"\n"), 0)
	}
	return &Lock{f: f, path: path}, nil
}

// Release gives the lock up, clearing the holder's process id from the
// file first (see Holder). It is safe to call more than once.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	l.f.Truncate(0)
	err := l.f.Close() // closing the descriptor drops the lock
	l.f = nil
	if err != nil {
		return fmt.Errorf("lockfile: %s: %w", l.path, err)
	}
	return nil
}

// hostname names this machine in the file ("" if unknown).
func hostname() string {
	h, _ := os.Hostname()
	return strings.Join(strings.Fields(h), "")
}

// readHolder reads what a holder wrote in f: its process id (0: none)
// and its machine's name ("" in files written before it was).
func readHolder(f *os.File) (pid int, host string) {
	b := make([]byte, 300)
	n, _ := f.ReadAt(b, 0)
	fields := strings.Fields(string(b[:n]))
	if len(fields) == 0 {
		return 0, ""
	}
	pid, err := strconv.Atoi(fields[0])
	if err != nil || pid < 0 {
		return 0, ""
	}
	if len(fields) > 1 {
		host = fields[1]
	}
	return pid, host
}

// Holder returns the process id of the holder of the lock on path, or 0
// when there is none: no file, an empty one (its holder released it), or
// the id of a process of this machine that is gone (a holder killed). It
// only reads the file and never takes the lock, so it cannot get in a
// holder's way. A holder on another machine (a directory shared over the
// network) cannot be checked: its id is returned as it is. A process id
// that the system gave again to another process after its holder was
// killed reads as a holder: a caller that must be sure looks for signs
// of work too.
func Holder(path string) (int, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("lockfile: %w", err)
	}
	defer f.Close()
	pid, host := readHolder(f)
	if pid > 0 && (host != "" && host != hostname() || alive(pid)) {
		return pid, nil
	}
	return 0, nil
}
