// Package atomicfile writes files so that a reader, or the next start after
// a crash, sees either the old content or the new one, never a mix: the
// data goes to a temporary file in the same folder, which is synced and
// then renamed over the destination, and the folder is synced too.
package atomicfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
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
func Write(path string, perm os.FileMode, fill func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+tempMark+"*")
	if err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = fill(f); err != nil {
		return fmt.Errorf("atomicfile: writing %s: %w", path, err)
	}
	if err = f.Chmod(perm); err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("atomicfile: sync %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("atomicfile: close %s: %w", path, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	if d, derr := os.Open(dir); derr == nil {
		d.Sync() // best effort: makes the rename durable on Linux
		d.Close()
	}
	return nil
}
