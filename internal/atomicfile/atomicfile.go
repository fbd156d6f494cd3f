// Package atomicfile writes files so that a reader, or the next start after
// a crash, sees either the old content or the new one, never a mix: the
// data goes to a temporary file in the same folder, which is synced and
// then renamed over the destination (Write) or hard-linked to it if it
// does not exist yet (Create), and the folder is synced too. A write that
// fails, for example on a full disk, leaves the destination as it was and
// no temporary file.
package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// tempMark follows the destination's name in the name of a temporary
// file, which also starts with a dot: ".NAME.tmp123456".
const tempMark = ".tmp"

// IsTemp reports whether a file name is that of a temporary file of Write,
// which a writer that was killed may leave behind (the destination is
// then intact, and the temporary file may be removed).
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempMark)
}

// WriteFile writes data to path atomically with the given permissions.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(data))
		return err
	})
}

// Write calls fill with a writer to a temporary file and, if fill succeeds,
// atomically replaces path with that file. On any error the destination is
// untouched and the temporary file is removed.
func Write(path string, perm os.FileMode, fill func(w io.Writer) error) error {
	tmp, err := writeTemp(path, perm, fill)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("atomicfile: %w", err)
	}
	SyncDir(filepath.Dir(path))
	return nil
}

// CreateFile writes data to path only if path does not exist yet; if it
// does, the error wraps fs.ErrExist and path is left as it was. The synced
// temporary file is hard-linked to path (link(2) fails atomically on an
// existing name, also on NFS), so of two writers racing on one path
// exactly one succeeds. On a file system without hard links it falls back
// to a check, then a rename, which is atomic only among the writers of
// this process.
func CreateFile(path string, data []byte, perm os.FileMode) error {
	return Create(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Create is CreateFile with the content written by fill, as in Write.
func Create(path string, perm os.FileMode, fill func(w io.Writer) error) error {
	tmp, err := writeTemp(path, perm, fill)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	err = os.Link(tmp, path)
	if err != nil && !errors.Is(err, fs.ErrExist) && (errors.Is(err, errors.ErrUnsupported) || errors.Is(err, fs.ErrPermission)) {
		// No hard links here (EPERM is how vfat and some FUSE file systems say so).
		err = renameIfAbsent(tmp, path)
	}
	if errors.Is(err, fs.ErrExist) {
		return &fs.PathError{Op: "create", Path: path, Err: fs.ErrExist}
	}
	if err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	SyncDir(filepath.Dir(path))
	return nil
}

// renameMu makes renameIfAbsent's check and rename one step among the
// writers of this process.
var renameMu sync.Mutex

func renameIfAbsent(tmp, path string) error {
	renameMu.Lock()
	defer renameMu.Unlock()
	if _, err := os.Lstat(path); err == nil {
		return fs.ErrExist
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.Rename(tmp, path)
}

// writeTemp writes a synced temporary file next to path, with perm, and
// returns its name; on an error it leaves no temporary file.
func writeTemp(path string, perm os.FileMode, fill func(w io.Writer) error) (tmp string, err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+tempMark+"*")
	if err != nil {
		return "", fmt.Errorf("atomicfile: %w", err)
	}
	name := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(name)
		}
	}()
	if err = fill(f); err != nil {
		return "", fmt.Errorf("atomicfile: writing %s: %w", path, err)
	}
	if err = f.Chmod(perm); err != nil {
		return "", fmt.Errorf("atomicfile: %w", err)
	}
	if err = f.Sync(); err != nil {
		return "", fmt.Errorf("atomicfile: sync %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return "", fmt.Errorf("atomicfile: close %s: %w", path, err)
	}
	return name, nil
}

// SyncDir makes a folder's entries (a file created, renamed or removed in
// it) durable, as Write and Create do after their rename or link; best
// effort (some file systems and Windows refuse to sync a folder).
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
