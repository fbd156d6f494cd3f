package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/analysis"
)

func init() {
	register(&command{
		name:  "analysis",
		usage: "analysis [--model FILE] [--visits N] [--concurrent N]",
		short: "run a JSON analysis engine on stdin/stdout (KataGo's field names)",
		long: `Analysis reads one JSON query a line on standard input and writes one
JSON response a line per analysed turn, in the manner of KataGo's
analysis engine:

    {"id":"q1","size":8,"moves":["d4","e4","d6-d4"],"maxVisits":200}
    {"id":"q1","turnNumber":3,"moveInfos":[{"move":"...","visits":..,
     "winrate":..,"prior":..,"order":0,"pv":["..."]},...],
     "rootInfo":{"winrate":..,"visits":..,"currentPlayer":"W"},
     "solved":"win","isDuringSearch":false}

Query fields: id (required), size (default 8; or KataGo's boardXSize
and boardYSize, any board of 4 to 16 files and ranks, with the gap start
where it is defined, as AbstractPlay's 7x6 and 9x8), moves, analyzeTurns
(default: the last), maxVisits (default --visits), maxTime (seconds per
turn), includePolicy (adds "policy": {move: prior}). Winrates are the side
to move's; moveInfos come best first (the engine's choice, then by
visits); only the best move's pv goes beyond the move itself. "solved" is
"win" or "loss" when the solver or the search proved the position, else
absent. Unknown fields, bad JSON and illegal moves get {"id":..,"error":..}
and the engine goes on. {"id":"t1","action":"terminate","terminateId":"q1"}
cancels q1 (acknowledged as such; q1 then ends with {"id":"q1",
"terminated":true}). Queries run concurrently (--concurrent at once) and
share the model's batched evaluator. The end of the input ends the engine
once the queries in flight are answered.

` + classicalAnswers(),
		run: runAnalysis,
	})
}

// runAnalysis is "konane analysis": the JSON analysis engine.
func runAnalysis(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("analysis", stderr)
	model := fs.String("model", "", "model file to analyse with instead of the shipped ones")
	visits := fs.Int("visits", analysis.DefaultSims, "simulations per turn of a query without maxVisits or maxTime")
	concurrent := fs.Int("concurrent", analysis.DefaultConcurrent, "queries searched at once")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *visits < 1 || *concurrent < 1 {
		return usageError("analysis", "--visits and --concurrent: want at least 1")
	}
	es, err := agent.OpenEngines(*model)
	if err != nil {
		return fmt.Errorf("analysis: %w", err)
	}
	s, err := analysis.NewStreamServer(analysis.StreamConfig{Engines: es, Concurrent: *concurrent, DefaultVisits: *visits, Seed: 1})
	if err != nil {
		return err
	}
	stop := runInBackground(ctx, es.Run)
	defer stop()
	return s.Serve(ctx, stdin, stdout)
}

// classicalAnswers is the analysis help's paragraph on the boards the
// classical engine answers, wrapped to the help's 76 columns (the board
// lists are generated).
func classicalAnswers() string {
	text := `On a board no network plays the classical engine (pvs) answers: without
--model every board but ` + agentBoards() + `; with --model every board but
the model's, and with a multi-board model file the boards above 8x8 it
was not trained on (its network plays ` + multiFileBoards() + `). It answers for maxTime or else
the default level's time per move, as play does there: the response says
"classical": true and gives the engine's move with its principal
variation, no visits, priors or policy; its winrate is 0.5 (unknown)
unless the search proved the result ("solved").`
	return strings.TrimSuffix(wrapWords("", strings.Fields(text), 76, 0), "\n")
}
