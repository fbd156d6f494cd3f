package runstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/konanezero/konane/runfiles"
)

// Latest is the pointer to a run's newest model, models/latest.json
// (runfiles.Latest, which owns its format), written only by the trainer
// after the model itself.
type Latest = runfiles.Latest

// LatestKey is the key of the pointer.
const LatestKey = runfiles.LatestKey

// ReadLatest reads the pointer; the error wraps ErrNotExist before the
// trainer published its first model.
func (s *Store) ReadLatest(ctx context.Context) (Latest, error) {
	b, err := s.Read(ctx, LatestKey)
	if err != nil {
		return Latest{}, err
	}
	l, err := ParseLatest(b)
	if err != nil {
		return l, &OpError{"read", s.loc, LatestKey, err}
	}
	return l, nil
}

// ParseLatest decodes and checks a model pointer (runfiles.ParseLatest).
func ParseLatest(b []byte) (Latest, error) { return runfiles.ParseLatest(b) }

// WriteLatest replaces the pointer.
func (s *Store) WriteLatest(ctx context.Context, l Latest) error {
	b, err := l.Encode()
	if err != nil {
		return err
	}
	return s.Put(ctx, LatestKey, b)
}

// ReadVerified reads key and checks that its sha256 is sum (hex).
func (s *Store) ReadVerified(ctx context.Context, key, sum string) ([]byte, error) {
	b, err := s.Read(ctx, key)
	if err != nil {
		return nil, err
	}
	if got := SHA256(b); got != sum {
		return nil, &OpError{"read", s.loc, key, fmt.Errorf("sha256 %s, want %s (corrupt or replaced)", got, sum)}
	}
	return b, nil
}

// SHA256 is the hex sha256 of data.
func SHA256(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}
