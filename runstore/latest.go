package runstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/konanezero/konane/runfiles"
)

// ReadLatest reads the pointer to the run's newest model
// (runfiles.Latest, which owns its format), written only by the trainer
// after the model itself; the error wraps ErrNotExist before the trainer
// published its first model.
func (s *Store) ReadLatest(ctx context.Context) (runfiles.Latest, error) {
	b, err := s.Read(ctx, runfiles.LatestKey)
	if err != nil {
		return runfiles.Latest{}, err
	}
	l, err := runfiles.ParseLatest(b)
	if err != nil {
		return l, &OpError{"read", s.loc, runfiles.LatestKey, err}
	}
	return l, nil
}

// WriteLatest replaces the pointer.
func (s *Store) WriteLatest(ctx context.Context, l runfiles.Latest) error {
	b, err := l.Encode()
	if err != nil {
		return err
	}
	return s.Put(ctx, runfiles.LatestKey, b)
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
