package runfiles

import (
	"fmt"
	"strings"
)

// Files and folders of a run.
const (
	LockFile       = "lock" // held by the run's trainer (local, or fed by workers on file://)
	ConfigFile     = "config.json"
	StateFile      = "state.json"
	MetricsFile    = "metrics.csv"
	PlotFile       = "metrics.png"
	ReplayDir      = "replay"
	GamesDir       = "games"
	ModelsDir      = "models"
	CheckpointsDir = "checkpoints"
	LatestFile     = "latest"                     // under ModelsDir
	LatestModelKey = ModelsDir + "/" + LatestFile // the trainer's newest model: its ModelName and a newline
	LatestKey      = ModelsDir + "/latest.json"   // the workers' pointer (Latest)
	LeaseDir       = "lease"
	LadderDir      = "ladder"
	QuarantineDir  = "quarantine"  // the worker games a trainer refused, under their keys
	RatingsFile    = "ratings.csv" // under LadderDir
	RatingsKey     = LadderDir + "/" + RatingsFile
	LadderLockKey  = LadderDir + "/" + LockFile // held while a ladder rates the run
)

// GenDir is the folder of generation gen under replay/ and games/, and
// the ladder's name of that generation: gen-NNNNNN.
func GenDir(gen int) string { return fmt.Sprintf("gen-%06d", gen) }

// ParseGenDir returns the generation that GenDir named name (ok false
// for any other name, or a generation below 1).
func ParseGenDir(name string) (gen int, ok bool) {
	if n, err := fmt.Sscanf(name, "gen-%06d", &gen); n != 1 || err != nil || GenDir(gen) != name || gen < 1 {
		return 0, false
	}
	return gen, true
}

// Prefix is the common prefix of the keys under folder dir (ModelsDir,
// CheckpointsDir, ...), for listing them.
func Prefix(dir string) string { return dir + "/" }

// GenReplayDir is the folder of generation gen's games under replay/: a
// local trainer's per-game samples (GameShardKey) or the workers' uploads
// (WorkerShardKey).
func GenReplayDir(gen int) string { return ReplayDir + "/" + GenDir(gen) }

// GameName is the base name of game i of a generation played by a local
// trainer (with .txt for its record, .shard for its samples).
func GameName(i int) string { return fmt.Sprintf("game-%05d", i) }

// GameRecordKey is the key of the record of game i of generation gen.
func GameRecordKey(gen, i int) string {
	return GamesDir + "/" + GenDir(gen) + "/" + GameName(i) + ".txt"
}

// GameShardKey is the key of the samples of game i of generation gen,
// kept until the generation's games are merged into its shard.
func GameShardKey(gen, i int) string {
	return GenReplayDir(gen) + "/" + GameName(i) + ".shard"
}

// ModelName is the file name of the model exported after generation gen.
func ModelName(gen int) string { return fmt.Sprintf("gen-%06d.safetensors", gen) }

// ModelKey is the key of the model of generation gen.
func ModelKey(gen int) string { return ModelFileKey(ModelName(gen)) }

// ModelFileKey is the key of the model file name (a ModelName, as
// state.json and models/latest record it).
func ModelFileKey(name string) string { return ModelsDir + "/" + name }

// ParseModelKey returns the generation whose model key is key (ok false
// for any other key).
func ParseModelKey(key string) (gen int, ok bool) {
	name, ok := strings.CutPrefix(key, Prefix(ModelsDir))
	if gen = GenerationOf(name); !ok || gen < 1 || name != ModelName(gen) {
		return 0, false
	}
	return gen, true
}

// GenerationOf is the generation of a model named by ModelName (0 for
// anything else).
func GenerationOf(name string) int {
	var g int
	fmt.Sscanf(name, "gen-%d.safetensors", &g)
	return g
}

// CheckpointName is the file name of the trainer's checkpoint after
// generation gen.
func CheckpointName(gen int) string { return fmt.Sprintf("gen-%06d.ckpt", gen) }

// CheckpointKey is the key of the checkpoint after generation gen.
func CheckpointKey(gen int) string { return CheckpointFileKey(CheckpointName(gen)) }

// CheckpointFileKey is the key of the checkpoint file name (a
// CheckpointName, as state.json records it).
func CheckpointFileKey(name string) string { return CheckpointsDir + "/" + name }

// ShardName is the file name of the merged samples of generation gen.
func ShardName(gen int) string { return fmt.Sprintf("gen-%06d.shard", gen) }

// ShardKey is the key of the merged samples of generation gen.
func ShardKey(gen int) string { return ReplayDir + "/" + ShardName(gen) }

// KeysName is the file name of the list of worker shards that generation
// gen trained on.
func KeysName(gen int) string { return fmt.Sprintf("gen-%06d.keys", gen) }

// KeysKey is the key of that list.
func KeysKey(gen int) string { return ReplayDir + "/" + KeysName(gen) }

// WorkerShardKey is the key of a game of model gen uploaded by a worker,
// named by the sha256 (hex) of its content.
func WorkerShardKey(gen int, sum string) string { return WorkerShardPrefix(gen) + sum + ".shard" }

// WorkerShardPrefix is the common prefix of the keys of model gen's games.
func WorkerShardPrefix(gen int) string { return Prefix(GenReplayDir(gen)) }

// ParseWorkerShardKey returns the generation and hash of a worker shard
// key.
func ParseWorkerShardKey(key string) (gen int, sum string, ok bool) {
	var rest string
	if n, err := fmt.Sscanf(key, ReplayDir+"/gen-%06d/%s", &gen, &rest); n != 2 || err != nil {
		return 0, "", false
	}
	sum, ok = strings.CutSuffix(rest, ".shard")
	if !ok || len(sum) != 64 || key != WorkerShardKey(gen, sum) {
		return 0, "", false
	}
	return gen, sum, true
}

// SpoolName names a game in a worker's spool: gen-NNNNNN-<sha256>.shard.
func SpoolName(gen int, sum string) string { return fmt.Sprintf("gen-%06d-%s.shard", gen, sum) }

// ParseSpoolName returns the store key of a game in a worker's spool.
func ParseSpoolName(name string) (key string, ok bool) {
	var gen int
	var rest string
	if n, err := fmt.Sscanf(name, "gen-%06d-%s", &gen, &rest); n != 2 || err != nil {
		return "", false
	}
	sum, ok := strings.CutSuffix(rest, ".shard")
	if !ok || len(sum) != 64 || SpoolName(gen, sum) != name {
		return "", false
	}
	return WorkerShardKey(gen, sum), true
}

// IsRunEntry reports whether name, an entry at the top of a run's
// directory, is one a run writes: its files and folders (a hidden name,
// such as a temporary file, counts as one too).
func IsRunEntry(name string) bool {
	switch name {
	case LockFile, ConfigFile, StateFile, MetricsFile, PlotFile, ReplayDir, GamesDir,
		ModelsDir, CheckpointsDir, LeaseDir, LadderDir, QuarantineDir:
		return true
	}
	return strings.HasPrefix(name, ".")
}
