package analysis

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// Bounds of the JSON engine.
const (
	MaxLine     = 1 << 16 // bytes of one query line
	MaxInFlight = 256     // queries accepted and not yet answered
	// DefaultConcurrent is the number of queries searched at once when
	// StreamConfig sets none; the others wait their turn.
	DefaultConcurrent = 8
)

// Query is one line of input of the JSON engine (see the package
// documentation); field names follow KataGo's analysis engine.
type Query struct {
	ID          string `json:"id"`
	Action      string `json:"action,omitempty"` // "" (analyse) or "terminate"
	TerminateID string `json:"terminateId,omitempty"`
	Size        int    `json:"size,omitempty"`
	// BoardXSize and BoardYSize are KataGo's board: files and ranks,
	// given together, in place of size (or equal to it).
	BoardXSize    int      `json:"boardXSize,omitempty"`
	BoardYSize    int      `json:"boardYSize,omitempty"`
	Moves         []string `json:"moves,omitempty"`
	AnalyzeTurns  []int    `json:"analyzeTurns,omitempty"`
	MaxVisits     int      `json:"maxVisits,omitempty"`
	MaxTime       float64  `json:"maxTime,omitempty"` // seconds per turn
	IncludePolicy bool     `json:"includePolicy,omitempty"`
}

// MoveInfo is one candidate move of a response.
type MoveInfo struct {
	Move    string   `json:"move"`
	Visits  int      `json:"visits"`
	Winrate float64  `json:"winrate"` // of the side to move, after this move
	Prior   float64  `json:"prior"`
	Order   int      `json:"order"` // 0 = the engine's choice
	PV      []string `json:"pv"`
}

// RootInfo describes the analysed position.
type RootInfo struct {
	Winrate       float64 `json:"winrate"` // of the side to move
	Visits        int     `json:"visits"`
	CurrentPlayer string  `json:"currentPlayer"` // "B" or "W"
}

// Response is one line of output: the analysis of one turn, the
// acknowledgement of a terminate action, the end of a terminated query,
// or an error.
type Response struct {
	ID             string             `json:"id"`
	TurnNumber     *int               `json:"turnNumber,omitempty"`
	MoveInfos      []MoveInfo         `json:"moveInfos,omitempty"`
	RootInfo       *RootInfo          `json:"rootInfo,omitempty"`
	Solved         *string            `json:"solved,omitempty"` // "win", "loss"; null when unsolved
	Policy         map[string]float64 `json:"policy,omitempty"`
	Action         string             `json:"action,omitempty"`
	TerminateID    string             `json:"terminateId,omitempty"`
	Terminated     bool               `json:"terminated,omitempty"`
	Error          string             `json:"error,omitempty"`
	IsDuringSearch *bool              `json:"isDuringSearch,omitempty"`
	// Classical is true on a board no network plays: the classical
	// engine (pvs) answered, with no visits, priors or policy.
	Classical *bool `json:"classical,omitempty"`
	// Note is the one line that says the network was not trained on the
	// query's board (a multi-board model's), in English; absent when it
	// was, or when the classical engine answered.
	Note string `json:"note,omitempty"`
}

// StreamConfig configures a JSON engine.
type StreamConfig struct {
	Engines *agent.Engines // running
	// Concurrent is the number of queries searched at once (0:
	// DefaultConcurrent); their positions share each engine's batched
	// evaluator.
	Concurrent int
	// DefaultVisits is the budget of a query without maxVisits or
	// maxTime (0: DefaultSims).
	DefaultVisits int
	// PVSTime is the classical engine's time per turn on a board no
	// network plays, for a query without maxTime (0: the default level's,
	// agent.DefaultLevel); PVSDepth, when above 0, also stops its search
	// at that depth (tests use it for answers that do not depend on the
	// machine's speed).
	PVSTime  time.Duration
	PVSDepth int
	Seed     uint64
}

// StreamServer is the JSON analysis engine: Serve reads queries, one JSON
// object a line, and writes responses, one a line.
type StreamServer struct {
	cfg StreamConfig
	sem chan struct{}

	outMu sync.Mutex
	out   io.Writer

	mu       sync.Mutex
	inFlight map[string]context.CancelFunc
}

// NewStreamServer returns a server; it starts nothing until Serve.
func NewStreamServer(cfg StreamConfig) (*StreamServer, error) {
	if cfg.Engines == nil {
		return nil, errors.New("analysis: server without engines")
	}
	if cfg.Concurrent < 0 || cfg.DefaultVisits < 0 || cfg.DefaultVisits > player.MaxSims {
		return nil, fmt.Errorf("analysis: server: bad concurrency %d or visits %d", cfg.Concurrent, cfg.DefaultVisits)
	}
	if cfg.Concurrent == 0 {
		cfg.Concurrent = DefaultConcurrent
	}
	if cfg.DefaultVisits == 0 {
		cfg.DefaultVisits = DefaultSims
	}
	if cfg.PVSTime < 0 || cfg.PVSDepth < 0 {
		return nil, fmt.Errorf("analysis: server: bad classical time %v or depth %d", cfg.PVSTime, cfg.PVSDepth)
	}
	if cfg.PVSTime == 0 {
		l, err := agent.ParseLevel(agent.DefaultLevel)
		if err != nil {
			return nil, fmt.Errorf("analysis: %w", err)
		}
		cfg.PVSTime = l.PVSTime
	}
	return &StreamServer{cfg: cfg, sem: make(chan struct{}, cfg.Concurrent), inFlight: map[string]context.CancelFunc{}}, nil
}

// Serve answers the queries of r on w until r ends (then it waits for the
// queries in flight) or ctx ends (then it cancels them). Bad input is
// answered with an error line and never ends it.
func (s *StreamServer) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	s.out = w
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	br := bufio.NewReaderSize(r, 4096)
	for {
		line, tooLong, err := readLine(br)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			s.handle(ctx, &wg, line, tooLong)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			cancel()
			wg.Wait()
			return fmt.Errorf("analysis: reading queries: %w", err)
		}
		if ctx.Err() != nil {
			break
		}
	}
	wg.Wait()
	return ctx.Err()
}

// readLine reads one line of at most MaxLine bytes; a longer one is read
// to its end and reported tooLong.
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, isPrefix, err := br.ReadLine()
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > MaxLine {
				tooLong, line = true, line[:64]
			}
		}
		if err != nil || !isPrefix {
			return line, tooLong, err
		}
	}
}

// handle answers one line: a terminate action at once, a query in its
// own goroutine.
func (s *StreamServer) handle(ctx context.Context, wg *sync.WaitGroup, line []byte, tooLong bool) {
	if tooLong {
		s.write(Response{ID: looseID(line), Error: fmt.Sprintf("query longer than %d bytes", MaxLine)})
		return
	}
	var q Query
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		s.write(Response{ID: looseID(line), Error: "bad query: " + jsonError(err)})
		return
	}
	if dec.More() {
		s.write(Response{ID: q.ID, Error: "bad query: more than one JSON value on the line"})
		return
	}
	if q.ID == "" {
		s.write(Response{Error: `bad query: no "id"`})
		return
	}
	switch q.Action {
	case "terminate":
		s.terminate(q)
		return
	case "":
	default:
		s.write(Response{ID: q.ID, Error: fmt.Sprintf("unknown action %s (want \"terminate\" or none)", rules.Quote(q.Action))})
		return
	}
	job, err := s.prepare(q)
	if err != nil {
		s.write(Response{ID: q.ID, Error: err.Error()})
		return
	}
	qctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	switch {
	case s.inFlight[q.ID] != nil:
		err = fmt.Errorf("query %s is already in flight", rules.Quote(q.ID))
	case len(s.inFlight) >= MaxInFlight:
		err = fmt.Errorf("too many queries in flight (%d)", MaxInFlight)
	default:
		s.inFlight[q.ID] = cancel
	}
	s.mu.Unlock()
	if err != nil {
		cancel()
		s.write(Response{ID: q.ID, Error: err.Error()})
		return
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			s.mu.Lock()
			delete(s.inFlight, q.ID)
			s.mu.Unlock()
			cancel()
		}()
		s.run(ctx, qctx, q.ID, job)
	}()
}

// terminate cancels the query q.TerminateID, if in flight, and
// acknowledges.
func (s *StreamServer) terminate(q Query) {
	if q.TerminateID == "" {
		s.write(Response{ID: q.ID, Error: `terminate: no "terminateId"`})
		return
	}
	s.mu.Lock()
	cancel := s.inFlight[q.TerminateID]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	s.write(Response{ID: q.ID, Action: "terminate", TerminateID: q.TerminateID})
}

// job is a checked query: the network's (engine and ps) or, on a board
// no network plays, the classical engine's (wide).
type job struct {
	engine *agent.Engine        // nil: the classical engine's
	ps     []rules.Position     // the positions to analyse on a board up to 8x8 with a network
	wide   []rules.WidePosition // the others: the classical engine's, or a network's above 8x8
	turns  []int
	limits player.Limits
	policy bool
}

// queryBoard is the board of q: size (N×N), or KataGo's boardXSize and
// boardYSize (with the board's default start: the gap where it is
// defined), 8x8 when none is given.
func queryBoard(q Query) (rules.Board, error) {
	x, y := q.BoardXSize, q.BoardYSize
	switch {
	case x == 0 && y == 0 && q.Size == 0:
		return rules.SquareBoard(8), nil
	case x == 0 && y == 0:
		if q.Size < rules.MinSide || q.Size > rules.MaxSide {
			return rules.Board{}, fmt.Errorf("size %d: want %d..%d", q.Size, rules.MinSide, rules.MaxSide)
		}
		return rules.SquareBoard(q.Size), nil
	case x == 0 || y == 0:
		return rules.Board{}, fmt.Errorf("boardXSize %d and boardYSize %d: give both", x, y)
	case x < rules.MinSide || x > rules.MaxSide || y < rules.MinSide || y > rules.MaxSide:
		return rules.Board{}, fmt.Errorf("board %dx%d: want sides %d..%d", x, y, rules.MinSide, rules.MaxSide)
	case q.Size != 0 && (q.Size != x || q.Size != y):
		return rules.Board{}, fmt.Errorf("size %d and board %dx%d: give one", q.Size, x, y)
	}
	return rules.NewBoard(x, y, rules.DefaultStart(x, y))
}

// prepare checks a query and replays its moves: with the network of its
// board when there is one, else for the classical engine.
func (s *StreamServer) prepare(q Query) (job, error) {
	b, err := queryBoard(q)
	if err != nil {
		return job{}, err
	}
	e, err := s.cfg.Engines.GetBoard(b)
	if _, ok := errors.AsType[*agent.NoModelError](err); ok {
		e, err = nil, nil // the classical engine analyses it
	}
	if err != nil {
		return job{}, err
	}
	switch {
	case q.MaxVisits < 0 || q.MaxVisits > player.MaxSims:
		return job{}, fmt.Errorf("maxVisits %d: want 1..%d", q.MaxVisits, player.MaxSims)
	case q.MaxTime < 0 || math.IsNaN(q.MaxTime) || q.MaxTime > player.MaxTime.Seconds():
		return job{}, fmt.Errorf("maxTime %v: want up to %v seconds", q.MaxTime, player.MaxTime.Seconds())
	}
	l := player.Limits{Sims: q.MaxVisits, Time: time.Duration(q.MaxTime * float64(time.Second))}
	if l.Sims == 0 && l.Time == 0 {
		l.Sims = s.cfg.DefaultVisits
	}
	if len(q.Moves) > b.Squares() {
		return job{}, fmt.Errorf("%d moves: a %s game has fewer", len(q.Moves), b)
	}
	start, err := b.WidePosition()
	if err != nil {
		return job{}, err
	}
	all := []rules.WidePosition{start}
	for i, text := range q.Moves {
		p := all[i]
		m, err := rules.ParseWideMove(p, text)
		if err != nil {
			// The move's text is already in the message: say what is
			// wrong with it once, from the typed error.
			if me, ok := errors.AsType[*rules.MoveError](err); ok {
				err = me.Err
			}
			return job{}, fmt.Errorf("move %d %s: %w", i+1, rules.Quote(text), err)
		}
		all = append(all, p.Play(m))
	}
	turns := q.AnalyzeTurns
	if turns == nil {
		turns = []int{len(q.Moves)}
	}
	// One rule: each turn of the game at most once.
	j := job{engine: e, turns: slices.Clone(turns), limits: l, policy: q.IncludePolicy}
	seen := make([]bool, len(all))
	for _, t := range turns {
		if t < 0 || t > len(q.Moves) {
			return job{}, fmt.Errorf("analyzeTurns: turn %d: want 0..%d (the number of moves)", t, len(q.Moves))
		}
		if seen[t] {
			return job{}, fmt.Errorf("analyzeTurns: turn %d appears twice: want each turn at most once", t)
		}
		seen[t] = true
		if e == nil || !b.Narrow() {
			j.wide = append(j.wide, all[t])
			continue
		}
		p, err := all[t].Narrow()
		if err != nil {
			return job{}, err
		}
		j.ps = append(j.ps, p)
	}
	return j, nil
}

// run analyses the job's turns and writes a response per turn, or the
// end of a terminated query.
func (s *StreamServer) run(ctx, qctx context.Context, id string, j job) {
	select {
	case s.sem <- struct{}{}:
		defer func() { <-s.sem }()
	case <-qctx.Done():
		s.cancelled(ctx, id)
		return
	}
	if j.engine == nil {
		s.runClassical(ctx, qctx, id, j)
		return
	}
	if len(j.wide) > 0 {
		s.runWide(ctx, qctx, id, j)
		return
	}
	pos, err := Evaluate(qctx, j.engine, j.ps, j.turns, Config{Limits: j.limits, Parallel: len(j.ps), Seed: s.cfg.Seed})
	if err != nil {
		if qctx.Err() != nil {
			s.cancelled(ctx, id)
			return
		}
		s.write(Response{ID: id, Error: err.Error()})
		return
	}
	note := j.engine.Note()
	for _, p := range pos {
		r := response(id, p, j.policy)
		r.Note = note
		s.write(r)
	}
}

// runWide analyses the job's turns on a board above 8x8 with the
// engine's network (agent.Agent.AdviseAny, one search after the other,
// each seeded by its turn) and writes a response per turn: as on the
// boards up to 8x8, without the exact solver's verdicts.
func (s *StreamServer) runWide(ctx, qctx context.Context, id string, j job) {
	rs := make([]Response, len(j.wide))
	for i, p := range j.wide {
		if !p.HasMoves() {
			// The side to move has lost: no search.
			an := agent.AnalysisOf[rules.WideMove]{Side: p.Turn, ResultOf: mcts.ResultOf[rules.WideMove]{Best: rules.NoWideMove, Value: -1, Proven: true}}
			rs[i] = searchResponse(id, j.turns[i], an, 0, j.policy)
			loss := "loss"
			rs[i].Solved = &loss
			continue
		}
		a, err := j.engine.NewAgent(s.cfg.Seed + uint64(j.turns[i]))
		var an agent.AnalysisOf[rules.WideMove]
		if err == nil {
			an, err = a.AdviseAny(qctx, p, j.limits)
		}
		if qctx.Err() != nil {
			s.cancelled(ctx, id)
			return
		}
		if err != nil {
			s.write(Response{ID: id, Error: err.Error()})
			return
		}
		rs[i] = searchResponse(id, j.turns[i], an, an.WinProb(), j.policy)
		if an.Proven {
			v := "loss"
			if an.Value > 0 {
				v = "win"
			}
			rs[i].Solved = &v
		}
		rs[i].Note = j.engine.Note()
	}
	for _, r := range rs {
		s.write(r)
	}
}

// runClassical analyses the job's turns with the classical engine (pvs),
// for the query's maxTime or the server's PVSTime each, one after the
// other, and writes a response per turn.
func (s *StreamServer) runClassical(ctx, qctx context.Context, id string, j job) {
	t := j.limits.Time
	if t == 0 {
		t = s.cfg.PVSTime
	}
	rs := make([]Response, len(j.wide))
	for i, p := range j.wide {
		e := player.NewPVS(s.cfg.PVSDepth, t, s.cfg.Seed+uint64(j.turns[i]))
		r := e.SearchWide(qctx, p, s.cfg.PVSDepth)
		if qctx.Err() != nil {
			s.cancelled(ctx, id)
			return
		}
		rs[i] = classicalResponse(id, j.turns[i], p, r)
	}
	for _, r := range rs {
		s.write(r)
	}
}

// classicalResponse is the response of a position the classical engine
// searched: its move and principal variation, no visits, priors or
// policy; the winrate is 1 or 0 when the search proved the result
// (solved), else the search's score as the review reads it
// (ScoreWinProb).
func classicalResponse(id string, turn int, p rules.WidePosition, r player.WideResult) Response {
	during, classical := false, true
	winrate, _ := ScoreWinProb(r)
	res := Response{ID: id, TurnNumber: &turn, MoveInfos: []MoveInfo{}, IsDuringSearch: &during, Classical: &classical,
		RootInfo: &RootInfo{Winrate: winrate, CurrentPlayer: "B"}}
	if p.Turn == rules.White {
		res.RootInfo.CurrentPlayer = "W"
	}
	if solved, wins, _ := r.Solved(); solved || !p.HasMoves() {
		v, w := "loss", 0.0
		if wins && p.HasMoves() {
			v, w = "win", 1
		}
		res.Solved, res.RootInfo.Winrate = &v, w
	}
	if len(r.PV) > 0 {
		pv := make([]string, len(r.PV))
		for i, m := range r.PV {
			pv[i] = m.String()
		}
		res.MoveInfos = append(res.MoveInfos, MoveInfo{Move: pv[0], Winrate: res.RootInfo.Winrate, PV: pv})
	}
	return res
}

// cancelled writes the end of a query cancelled by terminate (nothing
// when the whole engine is stopping).
func (s *StreamServer) cancelled(ctx context.Context, id string) {
	if ctx.Err() == nil {
		s.write(Response{ID: id, Terminated: true})
	}
}

// response is the response of one analysed position.
func response(id string, p Position, policy bool) Response {
	r := searchResponse(id, p.Ply, p.Search, p.WinProb, policy)
	r.RootInfo.CurrentPlayer = "B"
	if p.Side == rules.White {
		r.RootInfo.CurrentPlayer = "W"
	}
	if p.Exact != Unsolved {
		v := p.Exact.String()
		r.Solved = &v
	}
	return r
}

// searchResponse is the response of a search a at turn: the side to
// move's win probability winProb, the moves searched best first, and
// with policy the priors.
func searchResponse[M interface {
	comparable
	String() string
}](id string, turn int, a agent.AnalysisOf[M], winProb float64, policy bool) Response {
	during := false
	r := Response{ID: id, TurnNumber: &turn, MoveInfos: []MoveInfo{}, IsDuringSearch: &during,
		RootInfo: &RootInfo{Winrate: round(winProb), Visits: a.Sims, CurrentPlayer: "B"}}
	if a.Side == rules.White {
		r.RootInfo.CurrentPlayer = "W"
	}
	for order, i := range ranked(a) {
		mi := MoveInfo{Move: a.Moves[i].String(), Visits: a.Visits[i], Winrate: round((float64(a.Q[i]) + 1) / 2),
			Prior: round(float64(a.Prior[i])), Order: order, PV: []string{a.Moves[i].String()}}
		if a.Moves[i] == a.Best {
			mi.PV = a.PVStrings()
		}
		r.MoveInfos = append(r.MoveInfos, mi)
	}
	if policy {
		r.Policy = map[string]float64{}
		for i, m := range a.Moves {
			r.Policy[m.String()] = round(float64(a.Prior[i]))
		}
	}
	return r
}

// write writes one response line.
func (s *StreamServer) write(r Response) {
	data, err := json.Marshal(r)
	if err != nil {
		data, _ = json.Marshal(Response{ID: r.ID, Error: "internal: " + err.Error()})
	}
	s.outMu.Lock()
	defer s.outMu.Unlock()
	s.out.Write(append(data, '\n'))
}

// looseID is the "id" of a line that is not a valid query, when it has
// one, so that the error can name it.
func looseID(line []byte) string {
	var v struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(line, &v) != nil {
		return ""
	}
	if id, ok := v.ID.(string); ok {
		return id
	}
	return ""
}

// jsonError phrases a decoding error, with its byte offset, or the field
// and what it wants.
func jsonError(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("%v (at byte %d)", se, se.Offset)
	case errors.As(err, &te):
		if te.Field == "" {
			return fmt.Sprintf("want a JSON object (a query), not a JSON %s", te.Value)
		}
		field, _, _ := strings.Cut(te.Field, ".")
		return fmt.Sprintf("field %s: want %s, not a JSON %s", rules.Quote(field), fieldWants(field), te.Value)
	}
	// encoding/json says `json: unknown field "NAME"`, with the name whole.
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		if n, uerr := strconv.Unquote(name); uerr == nil {
			name = n
		}
		return "unknown field " + rules.Quote(name)
	}
	return err.Error()
}

// fieldWants says what a field of a Query holds, for errors.
func fieldWants(field string) string {
	switch field {
	case "id", "terminateId":
		return "a string"
	case "action":
		return `"terminate" or nothing`
	case "size":
		return "a whole number (the board size)"
	case "boardXSize", "boardYSize":
		return "a whole number (the board's files or ranks)"
	case "moves":
		return `an array of moves, like ["d4", "c4"]`
	case "analyzeTurns":
		return "an array of whole numbers (turns, 0 = the start)"
	case "maxVisits":
		return "a whole number (visits per turn)"
	case "maxTime":
		return "a number (seconds per turn)"
	case "includePolicy":
		return "true or false"
	}
	return "another type"
}

// ranked returns the indices of the searched moves of a (those visited,
// and the choice), the search's choice first, then by visits.
func ranked[M interface {
	comparable
	String() string
}](a agent.AnalysisOf[M]) []int {
	idx := make([]int, 0, len(a.Moves))
	for i := range a.Moves {
		if a.Visits[i] > 0 || a.Moves[i] == a.Best {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(x, y int) int {
		if (a.Moves[x] == a.Best) != (a.Moves[y] == a.Best) {
			if a.Moves[x] == a.Best {
				return -1
			}
			return 1
		}
		return a.Visits[y] - a.Visits[x]
	})
	return idx
}
