// Package lockfile takes an exclusive, advisory lock on a file, so that two
// processes (or two parts of one process) do not write the same directory
// at once. The lock is the operating system's (flock on Unix): it is
// released when the holder closes it or dies, even by kill -9, so a crash
// never leaves a stale lock behind. The file keeps the holder's process id
// for the error message of the next one who tries.
//
// # Usage
//
//	l, err := lockfile.Acquire(filepath.Join(dir, "lock"))
//	var busy *lockfile.BusyError
//	if errors.As(err, &busy) { ... someone else (busy.PID) works in dir ... }
//	if err != nil { return err }
//	defer l.Release()
package lockfile
