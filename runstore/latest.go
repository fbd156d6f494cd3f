package runstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// Latest is the pointer to a run's newest model, models/latest.json,
// written only by the trainer after the model itself.
type Latest struct {
	Generation int    `json:"generation"`
	Model      string `json:"model"`  // key of the model, e.g. models/gen-000012.safetensors
	SHA256     string `json:"sha256"` // hex sha256 of the model file
	// GamesPerGen is how many games the trainer wants per generation:
	// workers pause once the newest generation has them (backpressure).
	GamesPerGen int `json:"games_per_gen"`
	// Window is how many generations back the trainer still accepts games
	// from (1: only games of the newest model).
	Window int `json:"window"`
}

// LatestKey is the key of the pointer.
const LatestKey = "models/latest.json"

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

// ParseLatest decodes and checks a model pointer.
func ParseLatest(b []byte) (Latest, error) {
	var l Latest
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return Latest{}, fmt.Errorf("not a model pointer: %w", err)
	}
	if _, err := hex.DecodeString(l.SHA256); err != nil || len(l.SHA256) != 64 {
		return Latest{}, fmt.Errorf("model pointer: sha256 %q is not 64 hex digits", l.SHA256)
	}
	if l.Model == "" || checkKey(l.Model) != nil {
		return Latest{}, fmt.Errorf("model pointer: model key %q is invalid", l.Model)
	}
	if l.Generation < 0 || l.GamesPerGen < 0 || l.Window < 0 {
		return Latest{}, fmt.Errorf("model pointer: negative generation, games or window")
	}
	return l, nil
}

// WriteLatest replaces the pointer.
func (s *Store) WriteLatest(ctx context.Context, l Latest) error {
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return err
	}
	return s.Put(ctx, LatestKey, append(b, '\n'))
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
