package runstore

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/konanezero/konane/internal/atomicfile"
)

// fileBackend is a file:// store: key is the file dir/key, and every
// operation is one of the os package. Writes go through
// internal/atomicfile: a temporary file next to the destination, synced,
// then renamed over it (Put) or hard-linked to it (Create, which link(2)
// makes atomic: of two racing writers exactly one succeeds), and the
// folder synced; so a write that fails (a full disk) leaves the old
// content or nothing, never a truncated file under the final name.
type fileBackend struct {
	dir string
}

// path is the file of key.
func (b *fileBackend) path(key string) string {
	return filepath.Join(b.dir, filepath.FromSlash(key))
}

func (b *fileBackend) write(_ context.Context, key string, data []byte, createOnly bool) error {
	path := b.path(key)
	if err := mkdirAll(b.dir, filepath.Dir(path)); err != nil {
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

func (b *fileBackend) read(_ context.Context, key string) ([]byte, error) {
	data, err := os.ReadFile(b.path(key))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, ErrNotExist
	}
	if errors.Is(err, syscall.EISDIR) {
		return nil, syscall.EISDIR // a folder under the key's name, not a missing key
	}
	return data, err
}

// list walks the deepest folder that holds every key with prefix (not
// the symbolic links to folders within the run). A file
// or folder that vanishes during the walk (a temporary file renamed, a
// folder removed) is left out: it was not there when the walk got to it.
func (b *fileBackend) list(_ context.Context, prefix string, out []Object) ([]Object, error) {
	root := b.dir
	if i := strings.LastIndex(prefix, "/"); i >= 0 {
		root = b.path(prefix[:i])
	}
	// The separator makes the walk follow root when it is a symbolic link
	// (a run directory linked to another disk).
	err := filepath.WalkDir(root+string(filepath.Separator), func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				return nil
			}
			return err
		}
		if path == root || path == root+string(filepath.Separator) {
			return nil
		}
		rel, err := filepath.Rel(b.dir, path)
		if err != nil {
			return err
		}
		key := filepath.ToSlash(rel)
		if e.IsDir() {
			if folder := key + "/"; !strings.HasPrefix(folder, prefix) && !strings.HasPrefix(prefix, folder) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasPrefix(key, prefix) || !e.Type().IsRegular() {
			return nil
		}
		fi, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		out = append(out, Object{Key: key, Size: fi.Size(), ModTime: fi.ModTime()})
		return nil
	})
	return out, err
}

func (b *fileBackend) delete(_ context.Context, key string) error {
	err := os.Remove(b.path(key))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

func (b *fileBackend) close() error { return nil }

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

// RemoveStale removes the temporary files that writers killed before
// their rename left in folder (a key prefix ending in "/", or "" for the
// whole store) and its subfolders, those last modified before before: a
// write in progress is younger. Only a file:// store has them (the other
// stores write an object whole); elsewhere it does nothing.
func (s *Store) RemoveStale(folder string, before time.Time) {
	fb, ok := s.b.(*fileBackend)
	if !ok {
		return
	}
	root := fb.dir
	if folder != "" {
		root = fb.path(strings.TrimSuffix(folder, "/"))
	}
	filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !atomicfile.IsTemp(e.Name()) {
			return nil
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(before) {
			os.Remove(path)
		}
		return nil
	})
}
