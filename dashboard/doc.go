// Package dashboard is `konane dashboard`: a live, read-only view of a
// training run in the browser. It shows the run's configuration, the
// current generation and how far its self-play has come, the curves of
// metrics.csv and the Elo ladder (DIR/ladder/ratings.csv) as inline SVG
// drawn by package chart, and refreshes by itself as generations land
// (the page polls /api/status and fetches the charts again when the run
// changed). It is one embedded page with no external resources, laid out
// for phones as well as desks.
//
// The server only reads the run, through an fs.FS (os.DirFS for a run
// directory), so it is safe beside a running trainer or ladder (their
// files are replaced atomically) and can later read a run from any
// storage that offers one.
//
// API (GET only):
//
//	/api/status   the run's state as JSON (Status): configuration,
//	              generation, progress, last metrics, ladder summary, and
//	              Version, which changes whenever the charts would; State
//	              says "training" only while a trainer holds the run's
//	              lock (Options.Holder) and its data is fresh
//	/api/charts   the charts as JSON: [{"id", "title", "svg"}], metrics
//	              first, then the ladder's
package dashboard
