// Package runfiles owns the names and the formats of a training run's
// files: everyone who reads or writes a run asks here for the key of a
// file (a slash-separated name under the run: ConfigFile, ModelKey,
// ShardKey, GameRecordKey, WorkerShardKey, ...) and for its codec
// (config, state, metrics, ratings, solver check, the model pointer);
// the storage (a directory, or a bucket through runstore) stays
// elsewhere. The layout of a run is listed once, in docs/run-layout.md.
//
// It imports only the standard library, so that a read-only tool such as
// the dashboard needs neither the network nor the cloud SDKs. The replay
// shards' codec is not here but in selfplay (replay.go): it encodes
// net.Sample, and bringing net here would bring the network and its
// kernels to every reader.
//
// Every Parse function refuses what it cannot read with an error naming
// the file and what is wrong, and never panics; every Encode/Write
// function writes what its Parse reads back.
//
// # Usage
//
//	b, err := fs.ReadFile(run, runfiles.MetricsFile)
//	all, err := runfiles.ParseMetrics(b)
package runfiles
