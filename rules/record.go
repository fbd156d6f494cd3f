package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Record is one game: the board, ordered descriptive tags, the moves
// from the starting position and optional per-move comments.
//
// Two file formats hold a record, and both round-trip exactly:
//
// The text format is PGN-like and meant for people. A header of tag lines,
// the board size first, a blank line, then the numbered moves (one number
// per Black/White pair, as in chess), each optionally followed by a
// {comment}, and the result last:
//
//	[Size "6"]
//	[Event "example"]
//	[Result "1-0"]
//
//	1. c3 c4 2. a3-c3 {the first jump} e4-c4 1-0
//
// A square board is its [Size "N"] (4..8), as every record has always
// had it. Any other board, a rectangle or a square larger than 8x8, is
// [Board "WxH"] (W files, H ranks, 4..16 each; ParseBoard's names are
// read too) with its start, [Start "gap"] or [Start "removal"], which
// reading takes as the board's default start when it is absent; [Size]
// and [Board] do not go together. Files run a..p and ranks 1..16, so
// that a move on 15x12 reads "h12-h10".
//
// Tag values are written as Go quoted strings. A White move may be preceded
// by "N..." when a comment interrupts the pair; move numbers are optional
// when reading but checked when present.
//
// The JSON format is an object {"size":6,"tags":[{"key":..,"value":..}],
// "moves":["c3","c4","a3-c3",...],"comments":["","","the first jump",...]}
// for programs; tags and comments are left out when there are none. Any
// other board has "board":"7x6","start":"gap" in place of "size".
//
// Reading validates everything: the board, tag syntax, every move against
// the rules of the position it is played in, and a Result tag that
// contradicts a finished game. Error messages number a move as records
// do, by Black/White pairs with the side ("white's move 2", the game's 4th
// move); RecordError.Move keeps its 1-based index in the game.
type Record struct {
	// Size is N of a square board N×N of at most MaxSize (which starts
	// with the removals), 0 on any other board; Rect is that other board
	// and its start, the zero Board when Size is set. Board returns the
	// board either way.
	Size int
	Rect Board
	Tags []Tag // ordered; "Size", "Board" and "Start" are not tags but the board
	// The moves from the board's start, Black first: Moves on a board of
	// at most MaxSize files and ranks (Board().Narrow()), Wide on the
	// others, the other one empty.
	Moves    []Move
	Wide     []WideMove
	Comments []string // nil, or one per move ("" for none); all "" reads back as nil
}

// A Tag is one descriptive key/value pair of a Record. Well-known keys are
// Event, Date, Black, White, Result and Seed; a key is an ASCII letter
// followed by letters, digits or underscores.
type Tag struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Result tag values, as in PGN.
const (
	BlackWon   = "1-0"
	WhiteWon   = "0-1"
	Unfinished = "*"
)

// ResultFor returns the Result tag value for a game won by winner.
func ResultFor(winner Color) string {
	if winner == Black {
		return BlackWon
	}
	return WhiteWon
}

// NewRecord returns an empty record of a size×size game.
func NewRecord(size int) *Record { return &Record{Size: size} }

// NewBoardRecord returns an empty record of a game on b: Size on a square
// board of at most MaxSize, Rect on the others.
func NewBoardRecord(b Board) *Record {
	if b.Square() && b.Narrow() {
		return &Record{Size: b.W}
	}
	return &Record{Rect: b}
}

// Board returns the board of the game: Rect, or the Size×Size board with
// the removals.
func (r *Record) Board() Board {
	if r.Rect != (Board{}) {
		return r.Rect
	}
	return SquareBoard(r.Size)
}

// checkBoard validates the record's board, and that its moves are in
// the list of its board (Moves or Wide).
func (r *Record) checkBoard() error {
	if r.Rect == (Board{}) {
		if err := checkSize(r.Size); err != nil {
			return err
		}
	} else {
		if r.Size != 0 {
			return fmt.Errorf("size %d and board %dx%d: a record has one board", r.Size, r.Rect.W, r.Rect.H)
		}
		if err := r.Rect.Validate(); err != nil {
			return errors.Unwrap(err)
		}
		if r.Rect.Square() && r.Rect.Narrow() {
			return fmt.Errorf("board %dx%d is square: a square board up to %dx%d is the record's Size", r.Rect.W, r.Rect.H, MaxSize, MaxSize)
		}
	}
	switch wide := !r.Board().Narrow(); {
	case wide && len(r.Moves) > 0:
		return fmt.Errorf("board %s has more than %d files or ranks: its moves are the record's Wide moves", r.Rect, MaxSize)
	case !wide && len(r.Wide) > 0:
		return fmt.Errorf("board %s: its moves are the record's Moves, not Wide", r.Board())
	}
	return nil
}

// ErrWideBoard is wrapped by the error of Replay, Final and Game on a
// record of a board of more than MaxSize files or ranks (WideReplay and
// WideGame read those).
var ErrWideBoard = fmt.Errorf("more than %d files or ranks: only boards up to %dx%d are read here", MaxSize, MaxSize, MaxSize)

// start validates the record's board and returns its starting position,
// on a board of Position's.
func (r *Record) start() (Position, error) {
	if err := r.checkBoard(); err != nil {
		return Position{}, err
	}
	b := r.Board()
	if !b.Narrow() {
		return Position{}, fmt.Errorf("board %s: %w", b, ErrWideBoard)
	}
	return b.Position()
}

// wideStart validates the record's board and returns its starting
// position on the wide layout.
func (r *Record) wideStart() (WidePosition, error) {
	if err := r.checkBoard(); err != nil {
		return WidePosition{}, err
	}
	return r.Board().WidePosition()
}

// MoveStrings writes the record's moves (Moves or Wide) in project
// notation.
func (r *Record) MoveStrings() []string {
	if len(r.Wide) > 0 {
		return gameMoveStrings(r.Wide)
	}
	return MoveStrings(r.Moves)
}

// Len is the number of moves of the record (Moves or Wide).
func (r *Record) Len() int { return len(r.Moves) + len(r.Wide) }

// Tag returns the value of the tag key, or "" when it is absent.
func (r *Record) Tag(key string) string {
	for _, t := range r.Tags {
		if t.Key == key {
			return t.Value
		}
	}
	return ""
}

// SetTag sets the tag key to value, in place if it exists, else at the end.
func (r *Record) SetTag(key, value string) {
	for i, t := range r.Tags {
		if t.Key == key {
			r.Tags[i].Value = value
			return
		}
	}
	r.Tags = append(r.Tags, Tag{key, value})
}

// AddMove appends a move and its comment ("" for none), keeping Comments
// either nil or as long as Moves. It is for boards of at most MaxSize
// files and ranks (a WideGame records the others).
func (r *Record) AddMove(m Move, comment string) {
	if comment != "" && r.Comments == nil {
		r.Comments = make([]string, len(r.Moves), len(r.Moves)+1)
	}
	r.Moves = append(r.Moves, m)
	if r.Comments != nil {
		r.Comments = append(r.Comments, comment)
	}
}

// Winner reports the winner named by the Result tag; ok is false when the
// tag is absent or "*".
func (r *Record) Winner() (winner Color, ok bool) {
	switch r.Tag("Result") {
	case BlackWon:
		return Black, true
	case WhiteWon:
		return White, true
	}
	return 0, false
}

// Replay returns every position of the game: the start, then the position
// after each move (len(Moves)+1 positions). It fails on the first move that
// is not legal, naming its number and why.
func (r *Record) Replay() ([]Position, error) {
	p, err := r.start()
	if err != nil {
		return nil, &RecordError{Err: err}
	}
	out := make([]Position, 0, len(r.Moves)+1)
	out = append(out, p)
	for i, m := range r.Moves {
		if err := checkMove(p, m); err != nil {
			return nil, &RecordError{Move: i + 1, Text: m.String(), Err: err}
		}
		p = p.Play(m)
		out = append(out, p)
	}
	return out, nil
}

// Final returns the position after the last move, validating every move.
func (r *Record) Final() (Position, error) {
	ps, err := r.Replay()
	if err != nil {
		return Position{}, err
	}
	return ps[len(ps)-1], nil
}

// WideFinal is Final on the wide layout, for a record of any board: the
// position after the last move, validating every move.
func (r *Record) WideFinal() (WidePosition, error) {
	ps, err := r.WideReplay()
	if err != nil {
		return WidePosition{}, err
	}
	return ps[len(ps)-1], nil
}

// WideReplay is Replay on the wide layout, for a record of any board:
// Wide's moves on a board of more than MaxSize files or ranks, Moves'
// (made Wide) on the others.
func (r *Record) WideReplay() ([]WidePosition, error) {
	p, err := r.wideStart()
	if err != nil {
		return nil, &RecordError{Err: err}
	}
	moves := r.wideMoves()
	out := make([]WidePosition, 0, len(moves)+1)
	out = append(out, p)
	for i, m := range moves {
		if err := checkWideMove(p, m); err != nil {
			return nil, &RecordError{Move: i + 1, Text: m.String(), Err: err}
		}
		p = p.Play(m)
		out = append(out, p)
	}
	return out, nil
}

// wideMoves is r's moves in the wide layout: Wide, or on the boards
// Position holds its Moves converted.
func (r *Record) wideMoves() []WideMove {
	if len(r.Moves) == 0 {
		return r.Wide
	}
	moves := make([]WideMove, len(r.Moves))
	for i, m := range r.Moves {
		moves[i] = m.Wide()
	}
	return moves
}

// ErrNoSize is the error of a text record without a [Size "N"] or a
// [Board "WxH"] tag (a bare move list, as other sites show games); a
// reader may try the sizes itself by putting the tag before the text.
var ErrNoSize = errors.New(`no [Size "N"] tag before the moves (or [Board "WxH"] for a rectangle)`)

// RecordError is the error of reading or validating a record. Line is the
// 1-based line of the text format (0 when unknown or JSON), Move the 1-based
// index of the offending move in the game, Black's first move 1 (0 when
// the error is not about a move). Error names the move as people count
// moves: "black's move 3" is Move 5.
type RecordError struct {
	Path string // file name, when read from a file
	Line int
	Move int
	Text string // the move as written
	Err  error
}

func (e *RecordError) Error() string {
	var b strings.Builder
	b.WriteString("rules: record")
	if e.Path != "" {
		b.WriteString(" " + e.Path)
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, " line %d", e.Line)
	}
	if e.Move > 0 {
		fmt.Fprintf(&b, ": %s's move %d %s", Color((e.Move-1)%2), (e.Move+1)/2, Quote(e.Text))
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *RecordError) Unwrap() error { return e.Err }

func checkSize(size int) error {
	if size < MinSize || size > MaxSize {
		return fmt.Errorf("board size %d outside %d..%d", size, MinSize, MaxSize)
	}
	return nil
}

// checkMove explains why m is not legal in p, or returns nil. It reuses
// ParseMove's reasons: String is one-to-one on moves of the board, so m is
// legal exactly when its text parses in p.
func checkMove(p Position, m Move) error {
	if !p.HasMoves() {
		return fmt.Errorf("%w: the game is over, %s has no legal move", ErrIllegal, p.Turn)
	}
	_, err := parseMove(p, m.String())
	return err
}

// checkWideMove is checkMove on the wide layout.
func checkWideMove(p WidePosition, m WideMove) error {
	if !p.HasMoves() {
		return fmt.Errorf("%w: the game is over, %s has no legal move", ErrIllegal, p.Turn)
	}
	_, err := parseWideMove(p, m.String())
	return err
}

// line replays the moves of a record being read, on its board's layout.
type line interface {
	// over reports whether the game is over (the side to move has no
	// legal move), and the side to move.
	over() (bool, Color)
	// play reads a move in p's position, plays it and appends it to the
	// record; its error is parseMove's.
	play(text string) error
}

// newLine starts replaying moves into r, on r's board (validated).
func (r *Record) newLine() (line, error) {
	if r.Board().Narrow() {
		p, err := r.start()
		return &narrowLine{p, r}, err
	}
	p, err := r.wideStart()
	return &wideLine{p, r}, err
}

type narrowLine struct {
	p Position
	r *Record
}

func (l *narrowLine) over() (bool, Color) { return !l.p.HasMoves(), l.p.Turn }

func (l *narrowLine) play(text string) error {
	m, err := parseMove(l.p, text)
	if err != nil {
		return err
	}
	l.r.Moves = append(l.r.Moves, m)
	l.p = l.p.Play(m)
	return nil
}

type wideLine struct {
	p WidePosition
	r *Record
}

func (l *wideLine) over() (bool, Color) { return !l.p.HasMoves(), l.p.Turn }

func (l *wideLine) play(text string) error {
	m, err := parseWideMove(l.p, text)
	if err != nil {
		return err
	}
	l.r.Wide = append(l.r.Wide, m)
	l.p = l.p.Play(m)
	return nil
}

// check validates everything that the readers validate, so that whatever
// the writers accept reads back.
func (r *Record) check() error {
	if err := r.checkBoard(); err != nil {
		return &RecordError{Err: err}
	}
	seen := make(map[string]bool, len(r.Tags))
	for _, t := range r.Tags {
		if err := checkTag(t); err != nil {
			return &RecordError{Err: err}
		}
		if seen[t.Key] {
			return &RecordError{Err: fmt.Errorf("tag %s appears twice", t.Key)}
		}
		seen[t.Key] = true
	}
	texts := r.MoveStrings()
	if r.Comments != nil && len(r.Comments) != len(texts) {
		return &RecordError{Err: fmt.Errorf("%d comments for %d moves", len(r.Comments), len(texts))}
	}
	for i, c := range r.Comments {
		if err := checkComment(c); err != nil {
			return &RecordError{Move: i + 1, Text: texts[i], Err: err}
		}
	}
	// Replay the moves' texts (String is one-to-one on the moves of a
	// board, so a move is legal exactly when its text reads).
	l, err := (&Record{Size: r.Size, Rect: r.Rect}).newLine()
	if err != nil {
		return &RecordError{Err: err}
	}
	for i, text := range texts {
		if err := playChecked(l, text); err != nil {
			return &RecordError{Move: i + 1, Text: text, Err: err}
		}
	}
	over, turn := l.over()
	if err := checkResult(r.Tag("Result"), over, turn); err != nil {
		return &RecordError{Err: err}
	}
	return nil
}

// playChecked plays a move's text on l, which must not be over.
func playChecked(l line, text string) error {
	if over, turn := l.over(); over {
		return fmt.Errorf("%w: the game is over, %s has no legal move", ErrIllegal, turn)
	}
	return l.play(text)
}

func checkTag(t Tag) error {
	switch t.Key {
	case "Size":
		return errors.New(`"Size" is the record's Size field, not a tag`)
	case "Board", "Start":
		return fmt.Errorf("%q is the record's Rect field, not a tag", t.Key)
	}
	if !validKey(t.Key) {
		return fmt.Errorf("tag key %s: want a letter followed by letters, digits or _", Quote(t.Key))
	}
	if !utf8.ValidString(t.Value) {
		return fmt.Errorf("tag %s: value is not valid UTF-8", t.Key)
	}
	if t.Key == "Result" {
		switch t.Value {
		case BlackWon, WhiteWon, Unfinished:
		default:
			return fmt.Errorf("tag Result %s: want %s, %s or %s", Quote(t.Value), BlackWon, WhiteWon, Unfinished)
		}
	}
	return nil
}

func validKey(k string) bool {
	if k == "" {
		return false
	}
	for i, c := range []byte(k) {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '_')) {
			return false
		}
	}
	return true
}

func checkComment(c string) error {
	if strings.Contains(c, "}") {
		return errors.New("comment contains }")
	}
	if !utf8.ValidString(c) {
		return errors.New("comment is not valid UTF-8")
	}
	return nil
}

// checkResult rejects a result that contradicts a finished game (over,
// with turn to move and no legal move). A decided result before the end (a resignation)
// and "*" are always accepted.
func checkResult(result string, over bool, turn Color) error {
	if result == "" || result == Unfinished || !over {
		return nil
	}
	if want := ResultFor(turn.Other()); result != want {
		return fmt.Errorf("result %s, but the game is over and %s won (%s)", result, turn.Other(), want)
	}
	return nil
}

// ParseRecord reads a record in either format: JSON when the first
// non-space byte is '{', else text.
func ParseRecord(data []byte) (*Record, error) {
	r := new(Record)
	var err error
	if trimmed := bytes.TrimLeft(data, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '{' {
		err = r.UnmarshalJSON(data)
	} else {
		err = r.UnmarshalText(data)
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

// MaxRecordFile is the size in bytes of the largest record file that
// ReadRecordFile reads: a game on the largest board with a comment on
// every move fits many times over.
const MaxRecordFile = 1 << 20

// ReadRecordFile reads a record file in either format. A file larger
// than MaxRecordFile (or an endless one such as /dev/zero) is refused
// after reading at most MaxRecordFile+1 bytes.
func ReadRecordFile(path string) (*Record, error) {
	data, err := readFileMax(path, MaxRecordFile)
	if err != nil {
		return nil, fmt.Errorf("rules: record: %w", err)
	}
	r, err := ParseRecord(data)
	if err != nil {
		var re *RecordError
		if errors.As(err, &re) {
			re.Path = path
		}
		return nil, err
	}
	return r, nil
}

// readFileMax is os.ReadFile for files of at most limit bytes.
func readFileMax(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than %d MiB", path, limit>>20)
	}
	return data, nil
}

// MarshalFor returns the record in the format a file name asks for:
// JSON when name ends in .json, else the text format. Writing the file is
// the caller's (atomically: see internal/atomicfile).
func (r *Record) MarshalFor(name string) ([]byte, error) {
	if !strings.EqualFold(filepath.Ext(name), ".json") {
		return r.MarshalText()
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// lineWidth is where the text writer wraps the moves.
const lineWidth = 79

// MarshalText writes the text format. It fails, naming the problem, on a
// record that would not read back (bad size, tag or comment, illegal move).
func (r *Record) MarshalText() ([]byte, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if r.Rect == (Board{}) {
		fmt.Fprintf(&b, "[Size %q]\n", strconv.Itoa(r.Size))
	} else {
		fmt.Fprintf(&b, "[Board \"%dx%d\"]\n[Start %q]\n", r.Rect.W, r.Rect.H, r.Rect.Start.String())
	}
	for _, t := range r.Tags {
		fmt.Fprintf(&b, "[%s %s]\n", t.Key, strconv.Quote(t.Value))
	}
	b.WriteByte('\n')

	// Units are never split across lines: a move with its number, a
	// comment, the result.
	texts := r.MoveStrings()
	units := make([]string, 0, len(texts)+1)
	for i, u := range texts {
		if i%2 == 0 {
			u = strconv.Itoa(i/2+1) + ". " + u
		}
		units = append(units, u)
		if r.Comments != nil && r.Comments[i] != "" {
			units = append(units, "{"+r.Comments[i]+"}")
		}
	}
	result := r.Tag("Result")
	if result == "" {
		result = Unfinished
	}
	units = append(units, result)
	col := 0
	for _, u := range units {
		switch {
		case col == 0:
		case col+1+len(u) > lineWidth:
			b.WriteByte('\n')
			col = 0
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(u)
		col += len(u)
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// UnmarshalText reads the text format (see Record).
func (r *Record) UnmarshalText(data []byte) error {
	rec, err := parseText(data)
	if err != nil {
		return err
	}
	*r = *rec
	return nil
}

// parseText reads the header lines, then the moves.
func parseText(data []byte) (*Record, error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF")) // a byte-order mark
	r := &Record{}
	line := 0
	seen := map[string]bool{}
	sizeLine, boardLine, startLine := 0, 0, 0
	var start Start
	for len(data) > 0 {
		raw, rest, _ := bytes.Cut(data, []byte("\n"))
		text := strings.TrimSpace(string(raw))
		if text != "" && text[0] != '[' {
			break // the moves start here
		}
		line++
		data = rest
		if text == "" {
			continue
		}
		t, err := parseTagLine(text)
		if err != nil {
			return nil, &RecordError{Line: line, Err: err}
		}
		if seen[t.Key] {
			return nil, &RecordError{Line: line, Err: fmt.Errorf("tag %s appears twice", t.Key)}
		}
		seen[t.Key] = true
		if t.Key == "Size" {
			n, err := strconv.Atoi(t.Value)
			if err != nil {
				return nil, &RecordError{Line: line, Err: fmt.Errorf("tag Size %s is not a number", Quote(t.Value))}
			}
			if err := checkSize(n); err != nil {
				return nil, &RecordError{Line: line, Err: err}
			}
			r.Size, sizeLine = n, line
			continue
		}
		if t.Key == "Board" {
			b, err := ParseBoard(t.Value)
			if err != nil {
				return nil, &RecordError{Line: line, Err: fmt.Errorf("tag Board: %w", errors.Unwrap(err))}
			}
			r.Rect, boardLine = b, line
			continue
		}
		if t.Key == "Start" {
			if start, err = ParseStart(t.Value); err != nil {
				return nil, &RecordError{Line: line, Err: fmt.Errorf("tag Start %s: want removal or gap", Quote(t.Value))}
			}
			startLine = line
			continue
		}
		if err := checkTag(t); err != nil {
			return nil, &RecordError{Line: line, Err: err}
		}
		r.Tags = append(r.Tags, t)
	}
	if err := r.settleBoard(sizeLine, boardLine, startLine, start); err != nil {
		return nil, err
	}
	if err := r.parseMoves(data, line+1); err != nil {
		return nil, err
	}
	if err := r.check(); err != nil { // the result against the game
		return nil, err
	}
	return r, nil
}

// parseTagLine reads `[Key "Value"]`.
func parseTagLine(text string) (Tag, error) {
	if !strings.HasSuffix(text, "]") {
		return Tag{}, fmt.Errorf("tag line %s does not end with ]", Quote(text))
	}
	key, value, _ := strings.Cut(strings.TrimSpace(text[1:len(text)-1]), " ")
	if key != "Size" && !validKey(key) {
		return Tag{}, fmt.Errorf("tag key %s: want a letter followed by letters, digits or _", Quote(key))
	}
	value = strings.TrimSpace(value)
	if !strings.HasPrefix(value, `"`) {
		return Tag{}, fmt.Errorf(`tag %s: want a value in double quotes, like [%s "..."]`, key, key)
	}
	v, err := strconv.Unquote(value)
	if err != nil {
		if len(value) > MaxQuote {
			value = Quote(value)
		}
		return Tag{}, fmt.Errorf("tag %s: value %s is not a well-formed quoted string", key, value)
	}
	return Tag{key, v}, nil
}

// A token of the move text: a word (move, move number, result) or a
// comment, with the line it starts on.
type token struct {
	text    string
	comment bool
	line    int
}

func tokenize(data []byte, line int) ([]token, error) {
	var toks []token
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '{':
			end := bytes.IndexByte(data[i:], '}')
			if end < 0 {
				return nil, &RecordError{Line: line, Err: errors.New("comment { is never closed by }")}
			}
			body := string(data[i+1 : i+end])
			if !utf8.ValidString(body) {
				return nil, &RecordError{Line: line, Err: errors.New("comment is not valid UTF-8")}
			}
			toks = append(toks, token{body, true, line})
			line += strings.Count(body, "\n")
			i += end + 1
		case c == '}':
			return nil, &RecordError{Line: line, Err: errors.New("} without a {")}
		case c == '[':
			return nil, &RecordError{Line: line, Err: errors.New("tag line after the moves started (tags come first, then a blank line, then the moves)")}
		default:
			j := i
			for j < len(data) && !bytes.ContainsRune([]byte(" \t\r\n{}["), rune(data[j])) {
				j++
			}
			toks = append(toks, token{string(data[i:j]), false, line})
			i = j
		}
	}
	return toks, nil
}

// settleBoard sets the record's board from the tags read on the given
// lines (0 for a tag absent): [Size] alone, or [Board] with [Start] (its
// default start without), a square [Board] becoming Size; [Start] on its
// own goes with [Size].
func (r *Record) settleBoard(sizeLine, boardLine, startLine int, start Start) error {
	switch {
	case sizeLine == 0 && boardLine == 0:
		return &RecordError{Err: ErrNoSize}
	case sizeLine != 0 && boardLine != 0:
		return &RecordError{Line: max(sizeLine, boardLine), Err: errors.New("tags Size and Board: give one")}
	case sizeLine != 0:
		r.Rect = SquareBoard(r.Size)
	}
	if startLine != 0 {
		r.Rect.Start = start
		if err := r.Rect.Validate(); err != nil {
			return &RecordError{Line: startLine, Err: fmt.Errorf("tag Start: %w", errors.Unwrap(err))}
		}
	}
	if r.Rect.Square() && r.Rect.Narrow() {
		r.Size, r.Rect = r.Rect.W, Board{}
	}
	if err := r.checkBoard(); err != nil {
		return &RecordError{Line: max(sizeLine, boardLine), Err: err}
	}
	return nil
}

// parseMoves reads the move text that starts on line, replaying the game
// to validate each move.
func (r *Record) parseMoves(data []byte, line int) error {
	toks, err := tokenize(data, line)
	if err != nil {
		return err
	}
	l, err := r.newLine()
	if err != nil {
		return &RecordError{Err: err}
	}
	var comments []string
	hasComment := false
	numbered := 0 // line of a pending move number, 0 if none
	for i, tok := range toks {
		ply := r.Len()
		if numbered != 0 && (tok.comment || isResult(tok.text)) {
			return &RecordError{Line: numbered, Err: fmt.Errorf("move number %d without a move", ply/2+1)}
		}
		switch {
		case tok.comment:
			if ply == 0 {
				return &RecordError{Line: tok.line, Err: errors.New("comment before the first move")}
			}
			if comments[ply-1] != "" || (i > 0 && toks[i-1].comment) {
				return &RecordError{Line: tok.line, Err: fmt.Errorf("second comment after move %d", ply)}
			}
			comments[ply-1] = tok.text
			hasComment = hasComment || tok.text != ""
			continue
		case isResult(tok.text):
			if i != len(toks)-1 {
				return &RecordError{Line: toks[i+1].line, Err: fmt.Errorf("%s after the result %s", Quote(toks[i+1].text), tok.text)}
			}
			switch tag := r.Tag("Result"); {
			case tag == "":
				if tok.text != Unfinished {
					r.Tags = append(r.Tags, Tag{"Result", tok.text})
				}
			case tag != tok.text:
				return &RecordError{Line: tok.line, Err: fmt.Errorf("result %s disagrees with the Result tag %s", tok.text, Quote(tag))}
			}
			continue
		}
		text := tok.text
		if n, dots, rest, ok := cutMoveNumber(text); ok {
			want := ply/2 + 1
			switch {
			case dots != 1 && dots != 3:
				return &RecordError{Line: tok.line, Err: fmt.Errorf("move number %s: want %d. before Black's move or %d... before White's", Quote(text), want, want)}
			case n != want || (dots == 1) != (ply%2 == 0):
				expect := fmt.Sprintf("%d.", want)
				if ply%2 == 1 {
					expect = fmt.Sprintf("%d... (or nothing)", want)
				}
				return &RecordError{Line: tok.line, Err: fmt.Errorf("move number %s out of sequence: the next move is %s's, numbered %s", Quote(text[:len(text)-len(rest)]), Color(ply%2), expect)}
			}
			if rest == "" {
				numbered = tok.line
				continue
			}
			text = rest
		}
		numbered = 0
		if err := playChecked(l, text); err != nil {
			return &RecordError{Line: tok.line, Move: ply + 1, Text: text, Err: err}
		}
		comments = append(comments, "")
	}
	if numbered != 0 {
		return &RecordError{Line: numbered, Err: fmt.Errorf("move number %d without a move", r.Len()/2+1)}
	}
	if hasComment {
		r.Comments = comments
	}
	return nil
}

func isResult(s string) bool { return s == BlackWon || s == WhiteWon || s == Unfinished }

// cutMoveNumber splits "12." or "12...d4" into 12, the number of dots and
// the rest. ok is false when text does not start with digits and a dot.
func cutMoveNumber(text string) (n, dots int, rest string, ok bool) {
	i := 0
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	j := i
	for j < len(text) && text[j] == '.' {
		j++
	}
	if i == 0 || j == i {
		return 0, 0, text, false
	}
	n, err := strconv.Atoi(text[:i])
	if err != nil { // too many digits
		n = -1
	}
	return n, j - i, text[j:], true
}

// recordJSON is the JSON format.
type recordJSON struct {
	Size     int      `json:"size,omitempty"`
	Board    string   `json:"board,omitempty"` // a rectangle's "WxH"
	Start    string   `json:"start,omitempty"` // a rectangle's start
	Tags     []Tag    `json:"tags,omitempty"`
	Moves    []string `json:"moves"`
	Comments []string `json:"comments,omitempty"`
}

// MarshalJSON writes the JSON format. It fails like MarshalText on a
// record that would not read back.
func (r *Record) MarshalJSON() ([]byte, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	j := recordJSON{Size: r.Size, Tags: r.Tags, Moves: r.MoveStrings()}
	if r.Rect != (Board{}) {
		j.Board, j.Start = fmt.Sprintf("%dx%d", r.Rect.W, r.Rect.H), r.Rect.Start.String()
	}
	for i := range j.Moves {
		if r.Comments != nil && r.Comments[i] != "" {
			j.Comments = r.Comments // written only when one is not empty
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the JSON format, validating like UnmarshalText.
func (r *Record) UnmarshalJSON(data []byte) error {
	var j recordJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return &RecordError{Line: jsonLine(data, err), Err: fmt.Errorf("json: %s", strings.TrimPrefix(err.Error(), "json: "))}
	}
	if _, err := dec.Token(); err != io.EOF {
		return &RecordError{Err: errors.New("json: data after the record object")}
	}
	rec := &Record{Size: j.Size}
	if j.Board != "" || j.Start != "" {
		b, err := boardOfJSON(j)
		if err != nil {
			return &RecordError{Err: err}
		}
		rec.Size, rec.Rect = 0, b
		if b.Square() && b.Narrow() {
			rec.Size, rec.Rect = b.W, Board{}
		}
	}
	if len(j.Tags) > 0 {
		rec.Tags = j.Tags
	}
	l, err := rec.newLine()
	if err != nil {
		return &RecordError{Err: err}
	}
	for i, text := range j.Moves {
		if err := playChecked(l, text); err != nil {
			return &RecordError{Move: i + 1, Text: text, Err: err}
		}
	}
	if j.Comments != nil {
		if len(j.Comments) != len(j.Moves) {
			return &RecordError{Err: fmt.Errorf("%d comments for %d moves (want one per move, \"\" for none)", len(j.Comments), len(j.Moves))}
		}
		for _, c := range j.Comments {
			if c != "" {
				rec.Comments = j.Comments
				break
			}
		}
	}
	if err := rec.check(); err != nil {
		return err
	}
	*r = *rec
	return nil
}

// boardOfJSON reads the board of a JSON record with "board" or "start":
// "board" (ParseBoard's names) or "size", and "start" (else the board's
// default).
func boardOfJSON(j recordJSON) (Board, error) {
	var b Board
	switch {
	case j.Board != "" && j.Size != 0:
		return Board{}, errors.New(`"size" and "board": give one`)
	case j.Board != "":
		var err error
		if b, err = ParseBoard(j.Board); err != nil {
			return Board{}, fmt.Errorf("board: %w", errors.Unwrap(err))
		}
	default:
		if err := checkSize(j.Size); err != nil {
			return Board{}, err
		}
		b = SquareBoard(j.Size)
	}
	if j.Start != "" {
		s, err := ParseStart(j.Start)
		if err != nil {
			return Board{}, fmt.Errorf("start %s: want removal or gap", Quote(j.Start))
		}
		b.Start = s
		if err := b.Validate(); err != nil {
			return Board{}, fmt.Errorf("start: %w", errors.Unwrap(err))
		}
	}
	return b, nil
}

// jsonLine returns the line of a JSON syntax or type error, or 0.
func jsonLine(data []byte, err error) int {
	var offset int64
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		offset = syn.Offset
	case errors.As(err, &typ):
		offset = typ.Offset
	default:
		return 0
	}
	offset = min(offset, int64(len(data)))
	return 1 + bytes.Count(data[:offset], []byte("\n"))
}
