package runfiles

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
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

// ParseLatest decodes and checks a model pointer.
func ParseLatest(b []byte) (Latest, error) {
	var l Latest
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return Latest{}, fmt.Errorf("not a model pointer: %w", err)
	}
	if _, err := hex.DecodeString(l.SHA256); err != nil || len(l.SHA256) != 64 {
		return Latest{}, fmt.Errorf("model pointer: sha256 %q is not 64 hex digits", quote(l.SHA256))
	}
	if l.Model == "" || !ValidKey(l.Model) {
		return Latest{}, fmt.Errorf("model pointer: model key %q is invalid", quote(l.Model))
	}
	if l.Generation < 0 || l.GamesPerGen < 0 || l.Window < 0 {
		return Latest{}, fmt.Errorf("model pointer: negative generation, games or window")
	}
	return l, nil
}

// Encode returns the pointer's bytes.
func (l Latest) Encode() ([]byte, error) { return EncodeJSON(l) }

// ValidKey reports whether key can name a file of a run: a relative,
// slash-separated path with no empty, "." or ".." element, no element
// that is hidden (a leading dot) or a writer's temporary file (IsTemp).
func ValidKey(key string) bool {
	if key == "" || strings.HasPrefix(key, "/") || strings.HasSuffix(key, "/") || IsTemp(key) {
		return false
	}
	for _, e := range strings.Split(key, "/") {
		if e == "" || e == "." || e == ".." || strings.HasPrefix(e, ".") {
			return false
		}
	}
	return true
}

// IsTemp reports whether key names a writer's temporary file (a .tmp
// suffix or a .tmp. infix) or a hidden one, which listings of a run skip.
func IsTemp(key string) bool {
	if strings.HasSuffix(key, ".tmp") || strings.Contains(key, ".tmp.") {
		return true
	}
	for _, e := range strings.Split(key, "/") {
		if strings.HasPrefix(e, ".") {
			return true
		}
	}
	return false
}

// PointedModel returns the file name of the model (a ModelName) that
// data points to when data is one of a run's pointers to its newest
// model: models/latest (the name and a newline) or models/latest.json
// (Latest); ok is false for anything else, a model file among them. It
// lets a command given a pointer where it wants a model file say which
// file to give.
func PointedModel(data []byte) (name string, ok bool) {
	if len(data) > 4096 {
		return "", false
	}
	if l, err := ParseLatest(data); err == nil {
		gen, ok := ParseModelKey(l.Model)
		return ModelName(gen), ok
	}
	name = strings.TrimSuffix(string(data), "\n")
	if gen := GenerationOf(name); gen < 1 || name != ModelName(gen) {
		return "", false
	}
	return name, true
}

// PointerError is, when the file path is one of a run's pointers to its
// newest model (PointedModel), the one line that says so and names the
// model file to give instead, for a command that wanted a model file;
// nil for any other file, or one that cannot be read.
func PointerError(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 4097))
	if err != nil {
		return nil
	}
	name, ok := PointedModel(data)
	if !ok {
		return nil
	}
	return fmt.Errorf("%s is a training run's pointer to its newest model, not a model file: give that model, %s", path, filepath.Join(filepath.Dir(path), name))
}
