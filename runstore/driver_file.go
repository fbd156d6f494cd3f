package runstore

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/konanezero/konane/internal/atomicfile"
)

// The writes of a file:// store do not go through gocloud.dev/blob's
// fileblob, whose writer renames its temporary file into place on Close
// even after a failed Write (blob.WriteAll closes after a failed Write, and
// the content MD5 it checks is that of the bytes it was handed, not of the
// bytes that reached the disk): on a full disk a truncated object appeared
// under its final name. Nor does fileblob sync anything. They go through
// internal/atomicfile instead: a temporary file next to the destination,
// synced, then renamed over it (Put) or hard-linked to it (Create, which
// link(2) makes atomic: of two racing writers exactly one succeeds), and
// the folder synced. Reads, listings and deletes still use fileblob, which
// maps a key to the same path (checkKey refuses the keys it would escape).

// filePath is the file of key in a file:// store.
func (s *Store) filePath(key string) string {
	return filepath.Join(s.dir, filepath.FromSlash(key))
}

// writeFile writes key in a file:// store: create-only, or replacing.
func (s *Store) writeFile(key string, data []byte, createOnly bool) error {
	path := s.filePath(key)
	if err := mkdirAll(s.dir, filepath.Dir(path)); err != nil {
		return err
	}
	if !createOnly {
		return atomicfile.WriteFile(path, data, 0o644)
	}
	err := atomicfile.CreateFile(path, data, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return ErrExist
	}
	return err
}

// mkdirAll makes dir, a folder under root (which exists), with its
// missing parents, and syncs the parent of each folder it makes, so that
// a file written in it survives a crash.
func mkdirAll(root, dir string) error {
	if len(dir) <= len(root) {
		return nil
	}
	if fi, err := os.Stat(dir); err == nil {
		if !fi.IsDir() {
			return &fs.PathError{Op: "mkdir", Path: dir, Err: syscall.ENOTDIR}
		}
		return nil
	}
	if err := mkdirAll(root, filepath.Dir(dir)); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	atomicfile.SyncDir(filepath.Dir(dir))
	return nil
}

// removeEmptyDirs removes dir and the folders under it that hold no file
// (a temporary file that a killed writer left counts as none).
func removeEmptyDirs(dir string) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range es {
		p := filepath.Join(dir, e.Name())
		if e.IsDir() {
			removeEmptyDirs(p)
		} else if atomicfile.IsTemp(e.Name()) {
			os.Remove(p)
		}
	}
	if os.Remove(dir) == nil {
		atomicfile.SyncDir(filepath.Dir(dir))
	}
}
