package runfiles

import (
	"encoding/json"
	"fmt"
)

// RunConfig is what a tool that does not train (the dashboard) reads of
// config.json: the settings it shows, without the trainer's types. The
// trainer's full configuration (selfplay.Config) is a superset of it;
// fields it does not name are ignored here.
type RunConfig struct {
	Size        int    `json:"size"`
	Seed        uint64 `json:"seed"`
	GamesPerGen int    `json:"games_per_gen"`
	// Boards is a multi-board run's board list ("6x6", "8x8:2"), nil
	// for a single-board run.
	Boards []string `json:"boards"`
}

// ParseRunConfig reads config.json for a tool: one JSON object whose
// size, seed and games per generation are numbers.
func ParseRunConfig(b []byte) (RunConfig, error) {
	var c RunConfig
	if !json.Valid(b) {
		return c, fmt.Errorf("runfiles: %s: not valid JSON", ConfigFile)
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("runfiles: %s: %w", ConfigFile, err)
	}
	return c, nil
}
