// Package runfiles owns the names and the formats of a training run's
// files: everyone who reads or writes a run asks here for the name of a
// file and for its codec, and the storage (a directory, or a bucket
// through runstore) stays elsewhere. It imports only the standard
// library, so that a read-only tool such as the dashboard needs neither
// the network nor the cloud SDKs.
//
// The layout of a run, by key (a slash-separated name under the run):
//
//	lock                                 held by a local trainer while it runs; holds its PID
//	config.json                          the run's configuration (RunConfig reads what tools need of it)
//	state.json                           the last completed generation (State; written last: the commit point)
//	metrics.csv, metrics.png             one row per generation (Metrics), and their plot
//	replay/gen-NNNNNN.shard              the samples of each generation (ShardKey)
//	replay/gen-NNNNNN/game-NNNNN.shard   the finished games of a running generation, until merged
//	games/gen-NNNNNN/game-NNNNN.txt      every game as a text record (GameRecordKey)
//	models/gen-NNNNNN.safetensors        the model exported after each generation (ModelName)
//	models/latest                        the name of the newest model
//	checkpoints/gen-NNNNNN.ckpt          trainer state of the last two generations (CheckpointName)
//	ladder/ratings.csv                   the ladder's ratings (Ratings), and the rest of ladder/
//
// and, in a run fed by workers:
//
//	models/latest.json                   the newest model, its sha256, the games wanted (Latest)
//	replay/gen-NNNNNN/<sha256>.shard     one game played by model NNNNNN, uploaded by a worker (WorkerShardKey)
//	replay/gen-NNNNNN.keys               the worker shards that generation NNNNNN trained on (KeysKey)
//	lease/                               the trainer's lease
//
// A worker's spool holds gen-NNNNNN-<sha256>.shard files (SpoolName).
//
// # Usage
//
//	b, err := fs.ReadFile(run, runfiles.MetricsFile)
//	all, err := runfiles.ParseMetrics(b)
package runfiles
