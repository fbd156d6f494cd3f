package runfiles

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

// State is the commit point of a run, state.json: everything up to
// Generation is complete. It is written last in every generation.
type State struct {
	// RunID is the run's identity (Config's run_id in config.json),
	// checked against the configuration's when the run resumes ("" in
	// states of runs made before runs had one).
	RunID      string `json:"run_id,omitempty"`
	Generation int    `json:"generation"` // generations completed
	Checkpoint string `json:"checkpoint"` // trainer checkpoint after that generation
	// CheckpointSHA256 is the sha256 (hex) of that checkpoint, checked
	// when it is loaded ("" in states written before it was recorded).
	CheckpointSHA256 string `json:"checkpoint_sha256,omitempty"`
	Model            string `json:"model"` // model exported after that generation
	// ModelSHA256 is the sha256 (hex) of that model, checked when the run
	// resumes ("" in states written before it was recorded).
	ModelSHA256 string `json:"model_sha256,omitempty"`
	// ShardSHA256 holds the sha256 (hex) of the replay shard of each
	// generation 1..Generation, in order, checked when the run resumes:
	// "" for a generation committed before they were recorded, and
	// empty in states written before then.
	ShardSHA256 []string `json:"shard_sha256,omitempty"`
	Best        string   `json:"best"` // model that plays self-play when gating ("" = Model)
	// BestSHA256 is the sha256 (hex) of Best, checked when the run
	// resumes ("" in states written before it was recorded).
	BestSHA256 string  `json:"best_sha256,omitempty"`
	WallSecs   float64 `json:"wall_secs"` // wall time spent so far
	// Ingested lists, in a run fed by workers, the worker shards (keys)
	// trained on so far within the accepted window.
	Ingested []string `json:"ingested,omitempty"`
}

// MaxGenerations bounds the generation count read from state.json.
const MaxGenerations = 1 << 24

// Validate checks a state read from a run: a generation in bounds, the
// names of its own checkpoint and model (never a path elsewhere), a best
// model that is one of the run's generations so far, a wall time ≥ 0,
// worker shards of earlier generations, a run identity and sha256s in
// their formats (one shard sum per generation, or none).
func (st State) Validate() error {
	switch {
	case st.RunID != "" && !ValidRunID(st.RunID):
		return fmt.Errorf("run_id %q: want %d hex digits", quote(st.RunID), 2*runIDBytes)
	case len(st.ShardSHA256) != 0 && len(st.ShardSHA256) != st.Generation:
		return fmt.Errorf("shard_sha256 has %d entries for %d generations", len(st.ShardSHA256), st.Generation)
	case st.Generation < 0 || st.Generation > MaxGenerations:
		return fmt.Errorf("generation %d outside 0..%d", st.Generation, MaxGenerations)
	case !(st.WallSecs >= 0) || math.IsInf(st.WallSecs, 1):
		return fmt.Errorf("wall_secs %v: want a finite number ≥ 0", st.WallSecs)
	case st.Generation == 0:
		if st.Checkpoint != "" || st.CheckpointSHA256 != "" || st.Model != "" || st.ModelSHA256 != "" || st.Best != "" || st.BestSHA256 != "" || len(st.Ingested) > 0 {
			return errors.New("generation 0 names a checkpoint, a model or games")
		}
		return nil
	case st.Checkpoint != CheckpointName(st.Generation):
		return fmt.Errorf("checkpoint %q of generation %d: want %q", st.Checkpoint, st.Generation, CheckpointName(st.Generation))
	case st.CheckpointSHA256 != "" && !isSHA256(st.CheckpointSHA256):
		return fmt.Errorf("checkpoint_sha256 %q: want 64 hex digits", quote(st.CheckpointSHA256))
	case st.Model != ModelName(st.Generation):
		return fmt.Errorf("model %q of generation %d: want %q", st.Model, st.Generation, ModelName(st.Generation))
	case st.ModelSHA256 != "" && !isSHA256(st.ModelSHA256):
		return fmt.Errorf("model_sha256 %q: want 64 hex digits", quote(st.ModelSHA256))
	case st.BestSHA256 != "" && (st.Best == "" || !isSHA256(st.BestSHA256)):
		return fmt.Errorf("best_sha256 %q: want 64 hex digits, of a best model", quote(st.BestSHA256))
	}
	for i, sum := range st.ShardSHA256 {
		if sum != "" && !isSHA256(sum) {
			return fmt.Errorf("shard_sha256 of generation %d, %q: want 64 hex digits", i+1, quote(sum))
		}
	}
	if st.Best != "" {
		if g := GenerationOf(st.Best); g < 1 || g > st.Generation || st.Best != ModelName(g) {
			return fmt.Errorf("best model %q: want one of %s..%s", st.Best, ModelName(1), ModelName(st.Generation))
		}
	}
	for _, k := range st.Ingested {
		if g, _, ok := ParseWorkerShardKey(k); !ok || g >= st.Generation {
			return fmt.Errorf("ingested game %q: want a worker shard of a generation before %d", k, st.Generation)
		}
	}
	return nil
}

// runIDBytes is the length of a run's identity, in bytes.
const runIDBytes = 16

// NewRunID returns a new run identity: 128 random bits in hex, from the
// system's random source (not from the run's seed: two runs of one seed
// are two runs).
func NewRunID() string {
	b := make([]byte, runIDBytes)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// ValidRunID reports whether id is a run identity as NewRunID makes it.
func ValidRunID(id string) bool { return isHex(id, 2*runIDBytes) }

// isSHA256 reports whether s is a sha256 in lower-case hex.
func isSHA256(s string) bool { return isHex(s, 64) }

// isHex reports whether s is n lower-case hex digits.
func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// ParseState reads a saved state: one JSON object with no unknown field,
// whose numbers and names agree (State.Validate).
func ParseState(b []byte) (State, error) {
	var st State
	if err := DecodeObject(b, &st); err != nil {
		return State{}, fmt.Errorf("corrupt: %w", err)
	}
	if err := st.Validate(); err != nil {
		return State{}, err
	}
	return st, nil
}

// Encode returns state.json's bytes.
func (st State) Encode() ([]byte, error) { return EncodeJSON(st) }

// EncodeJSON is how a run writes its JSON files (config, state, the
// model pointer): indented by two spaces, with a final newline.
func EncodeJSON(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("runfiles: %w", err)
	}
	return append(b, '\n'), nil
}

// DecodeObject decodes b, which must hold exactly one JSON object (not
// null, nothing after it), into v, refusing fields that v does not have.
func DecodeObject(b []byte, v any) error {
	if t := bytes.TrimLeft(b, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return errors.New("not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if err := dec.Decode(new(json.RawMessage)); err != io.EOF {
		return errors.New("data after the JSON object")
	}
	return nil
}
