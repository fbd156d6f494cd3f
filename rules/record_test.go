package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// randomRecord plays a seeded random game of the given size and records
// it with tags and some comments. Even seeds play to the end and carry the
// winner; odd seeds stop early (a resignation or an unfinished game).
func randomRecord(seed uint64, size int) *Record {
	rng := newRand(seed)
	r := NewRecord(size)
	r.SetTag("Event", fmt.Sprintf("test game %d", seed))
	r.SetTag("Black", `Kōnane "Zero" \ gen 3`)
	r.SetTag("White", "line one\nline two\t[tab]")
	r.SetTag("Seed", fmt.Sprint(seed))
	ps, ms := Playout(rng, NewPosition(size), -1)
	if seed%2 == 1 {
		ms = ms[:rng.IntN(len(ms)+1)]
	}
	for _, m := range ms {
		comment := ""
		switch rng.IntN(6) {
		case 0:
			comment = fmt.Sprintf("visits %d value %.3f", rng.IntN(800), rng.Float64()*2-1)
		case 1:
			comment = " spaces, { and\nnewline "
		}
		r.AddMove(m, comment)
	}
	switch {
	case len(ms) == len(ps)-1 && seed%2 == 0:
		r.SetTag("Result", ResultFor(ps[len(ps)-1].Turn.Other()))
	case seed%4 == 1:
		r.SetTag("Result", ResultFor(Color(rng.IntN(2)))) // resigned
	case seed%4 == 3:
		r.SetTag("Result", Unfinished)
	}
	return r
}

// TestRecordRoundTrip writes random records in both formats and reads them
// back: the record is unchanged, and writing it again gives the same bytes.
func TestRecordRoundTrip(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 10
	}
	for g := 0; g < games; g++ {
		for n := MinSize; n <= MaxSize; n++ {
			r := randomRecord(uint64(g*10+n), n)
			text, err := r.MarshalText()
			if err != nil {
				t.Fatal(err)
			}
			js, err := r.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			for _, data := range [][]byte{text, js} {
				back, err := ParseRecord(data)
				if err != nil {
					t.Fatalf("%v reading\n%s", err, data)
				}
				if !reflect.DeepEqual(back, r) {
					t.Fatalf("round trip changed the record\n%+v\ninto\n%+v\nvia\n%s", r, back, data)
				}
				text2, _ := back.MarshalText()
				js2, _ := back.MarshalJSON()
				if !bytes.Equal(text2, text) || !bytes.Equal(js2, js) {
					t.Fatalf("writing again gives different bytes:\n%s\n%s\nvs\n%s\n%s", text, js, text2, js2)
				}
			}
		}
	}
}

// TestRecordTextFormat pins the text layout: Size first, tags in order,
// a blank line, numbered pairs, comments in braces, the result last, lines
// wrapped before 80 columns.
func TestRecordTextFormat(t *testing.T) {
	r := NewRecord(6)
	r.SetTag("Event", "format test")
	r.SetTag("Date", "2025.01.02")
	p := NewPosition(6)
	for i, text := range []string{"c3", "c4", "a3-c3", "e4-c4", "b4-d4", "e6-e4", "c5-e5"} {
		m := mustMove(t, p, text)
		comment := ""
		if i == 2 {
			comment = "first jump"
		}
		r.AddMove(m, comment)
		p = p.Play(m)
	}
	want := `[Size "6"]
[Event "format test"]
[Date "2025.01.02"]

1. c3 c4 2. a3-c3 {first jump} e4-c4 3. b4-d4 e6-e4 4. c5-e5 *
`
	got, err := r.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("text:\n%s\nwant:\n%s", got, want)
	}
	// A long game wraps; no line is longer than 79 bytes.
	long := randomRecord(2, 8)
	long.Comments = nil
	text, err := long.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(text)), "\n")
	if len(lines) < 8 {
		t.Fatalf("a %d-move game fits on %d lines:\n%s", len(long.Moves), len(lines), text)
	}
	for _, l := range lines {
		if len(l) > 79 {
			t.Errorf("line of %d bytes: %q", len(l), l)
		}
	}
}

// TestParseRecordLenient: the reader accepts what people write besides the
// canonical form: no move numbers, "N..." before White's move, a number
// glued to its move, CRLF line ends, a byte-order mark, blank lines
// between tags, tags in any order after Size, no result token.
func TestParseRecordLenient(t *testing.T) {
	canonical := "[Size \"6\"]\n[Event \"e\"]\n\n1. c3 c4 2. a3-c3 {x} e4-c4 *\n"
	want, err := ParseRecord([]byte(canonical))
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"[Size \"6\"]\n[Event \"e\"]\n\nc3 c4 a3-c3 {x} e4-c4\n",
		"[Size \"6\"]\n[Event \"e\"]\n\n1. c3 c4 2. a3-c3 {x} 2... e4-c4 *",
		"[Size \"6\"]\n[Event \"e\"]\n\n1.c3 1...c4 2.a3-c3{x}e4-c4 *\n",
		"\uFEFF[Size \"6\"]\r\n\r\n[Event \"e\"]\r\n\r\n1. c3 c4\r\n2. A3-C3 {x}\r\ne4-c4 *\r\n",
		"[Event \"e\"]\n[Size \"06\"]\n1. c3\n c4 2. a3-c3 {x} e4-c4",
	} {
		got, err := ParseRecord([]byte(text))
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q read as %+v, want %+v", text, got, want)
		}
	}
	// A result token without a Result tag sets the tag.
	r, err := ParseRecord([]byte("[Size \"4\"]\n\n1. a1 b1 1-0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Tag("Result") != BlackWon {
		t.Fatalf("Result tag %q, want 1-0", r.Tag("Result"))
	}
	// JSON with surrounding space and key order changes.
	r, err = ParseRecord([]byte("\n  {\"moves\": [\"c3\", \"c4\"], \"size\": 6}\n"))
	if err != nil || len(r.Moves) != 2 || r.Size != 6 || r.Tags != nil || r.Comments != nil {
		t.Fatalf("JSON read as %+v, %v", r, err)
	}
}

// TestParseRecordErrors: every kind of bad input gives one error naming
// the line (text) and the move where there is one, and the reason.
func TestParseRecordErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
		illegal          bool
	}{
		{"empty", "", `rules: record: no [Size "N"] tag`, false},
		{"no size", "[Event \"x\"]\n\n1. d4 *\n", `rules: record: no [Size "N"] tag`, false},
		{"size not a number", "[Size \"eight\"]\n", `rules: record line 1: tag Size "eight" is not a number`, false},
		{"size too big", "[Size \"9\"]\n", "rules: record line 1: board size 9 outside 4..8", false},
		{"size too small", "[Size \"3\"]\n", "rules: record line 1: board size 3 outside 4..8", false},
		{"tag not closed", "[Size \"8\"]\n[Event \"x\"\n", `rules: record line 2: tag line "[Event \"x\"" does not end with ]`, false},
		{"tag unquoted", "[Size \"8\"]\n[Event x]\n", "rules: record line 2: tag Event: want a value in double quotes", false},
		{"tag bad quoting", "[Size \"8\"]\n[Event \"x]\n", "rules: record line 2: tag Event: value \"x is not a well-formed quoted string", false},
		{"tag bad key", "[Size \"8\"]\n[9lives \"x\"]\n", `rules: record line 2: tag key "9lives"`, false},
		{"tag twice", "[Size \"8\"]\n[Event \"x\"]\n[Event \"y\"]\n", "rules: record line 3: tag Event appears twice", false},
		{"size twice", "[Size \"8\"]\n[Size \"6\"]\n", "rules: record line 2: tag Size appears twice", false},
		{"bad result tag", "[Size \"8\"]\n[Result \"1/2-1/2\"]\n", `rules: record line 2: tag Result "1/2-1/2": want 1-0, 0-1 or *`, false},
		{"invalid utf-8 tag", "[Size \"8\"]\n[Event \"\\xff\"]\n", "rules: record line 2: tag Event: value is not valid UTF-8", false},
		{"illegal removal", "[Size \"8\"]\n\n1. c3 *\n", `rules: record line 3: black's move 1 "c3": illegal move: Black's removal must be from a corner`, true},
		{"off the board", "[Size \"8\"]\n\n1. d4 e4\n2. b4-d4\n e6-e4 3. f4-d9\n", `rules: record line 5: black's move 3 "f4-d9": square "d9" is off the 8x8 board`, false},
		{"illegal jump", "[Size \"6\"]\n\n1. c3 c4 2. a3-c3 e4-c4\n3. c1-c3 *\n", `rules: record line 4: black's move 3 "c1-c3": illegal move: the landing square c3 is not empty`, true},
		{"move after the end", "[Size \"4\"]\n\n1. a1 b1 2. a3-a1 b3-b1 3. d2-b2 d3-b3 4. c1-a1\n", "rules: record line 3: black's move 4 \"c1-a1\": illegal move: the game is over, black has no legal move", true},
		{"number out of sequence", "[Size \"8\"]\n\n1. d4 e4 3. b4-d4\n", `rules: record line 3: move number "3." out of sequence: the next move is black's, numbered 2.`, false},
		{"white number on black move", "[Size \"8\"]\n\n1. d4 e4 2... b4-d4\n", `move number "2..." out of sequence`, false},
		{"black number on white move", "[Size \"8\"]\n\n1. d4 1. e4\n", `move number "1." out of sequence: the next move is white's, numbered 1... (or nothing)`, false},
		{"huge number", "[Size \"8\"]\n\n99999999999999999999999. d4\n", `rules: record line 3: move number "99999999999999999999999." out of sequence`, false},
		{"two dots", "[Size \"8\"]\n\n1.. d4\n", `rules: record line 3: move number "1..": want 1. before Black's move or 1... before White's`, false},
		{"number without move", "[Size \"8\"]\n\n1. d4 e4 2.\n", "rules: record line 3: move number 2 without a move", false},
		{"number before comment", "[Size \"8\"]\n\n1. d4 e4 2. {hm} b4-d4\n", "rules: record line 3: move number 2 without a move", false},
		{"comment first", "[Size \"8\"]\n\n{hello} 1. d4\n", "rules: record line 3: comment before the first move", false},
		{"two comments", "[Size \"8\"]\n\n1. d4 {a}\n{b} e4\n", "rules: record line 4: second comment after move 1", false},
		{"open comment", "[Size \"8\"]\n\n1. d4 {never closed\n", "rules: record line 3: comment { is never closed by }", false},
		{"stray brace", "[Size \"8\"]\n\n1. d4 } e4\n", "rules: record line 3: } without a {", false},
		{"tag after moves", "[Size \"8\"]\n\n1. d4 e4\n[Event \"late\"]\n", "rules: record line 4: tag line after the moves started", false},
		{"token after result", "[Size \"8\"]\n\n1. d4 e4 * 2. b4-d4\n", `rules: record line 3: "2." after the result *`, false},
		{"result disagrees with tag", "[Size \"8\"]\n[Result \"1-0\"]\n\n1. d4 e4 0-1\n", `rules: record line 4: result 0-1 disagrees with the Result tag "1-0"`, false},
		{"result contradicts the end", "[Size \"4\"]\n[Result \"1-0\"]\n\n1. a1 b1 2. a3-a1 b3-b1 3. d2-b2 d3-b3 1-0\n", "rules: record: result 1-0, but the game is over and white won (0-1)", false},
		{"invalid utf-8 comment", "[Size \"8\"]\n\n1. d4 {\xff}\n", "rules: record line 3: comment is not valid UTF-8", false},
		{"json syntax", "{\"size\": 8,\n \"moves\": [\"d4\",]}", "rules: record line 2: json: invalid character ']'", false},
		{"json unknown field", "{\"size\": 8, \"player\": \"x\"}", `rules: record: json: unknown field "player"`, false},
		{"json wrong type", "{\"size\": \"8\"}", "rules: record line 1: json: cannot unmarshal string", false},
		{"json trailing data", "{\"size\": 8} {}", "rules: record: json: data after the record object", false},
		{"json no size", "{\"moves\": []}", "rules: record: board size 0 outside 4..8", false},
		{"json illegal move", "{\"size\": 8, \"moves\": [\"d4\", \"e4\", \"d6-d4\", \"e4-e6\"]}", `rules: record: white's move 2 "e4-e6": illegal move: no stone on e4`, true},
		{"json move after the end", "{\"size\": 4, \"moves\": [\"a1\", \"b1\", \"a3-a1\", \"b3-b1\", \"d2-b2\", \"d3-b3\", \"c1-a1\"]}", `rules: record: black's move 4 "c1-a1": illegal move: the game is over, black has no legal move`, true},
		{"json comments length", "{\"size\": 8, \"moves\": [\"d4\"], \"comments\": [\"a\", \"b\"]}", "rules: record: 2 comments for 1 moves", false},
		{"json comment brace", "{\"size\": 8, \"moves\": [\"d4\"], \"comments\": [\"a}\"]}", `rules: record: black's move 1 "d4": comment contains }`, false},
		{"json size tag", "{\"size\": 8, \"tags\": [{\"key\": \"Size\", \"value\": \"8\"}]}", `rules: record: "Size" is the record's Size field, not a tag`, false},
		{"json duplicate tag", "{\"size\": 8, \"tags\": [{\"key\": \"A\", \"value\": \"\"}, {\"key\": \"A\", \"value\": \"\"}]}", "rules: record: tag A appears twice", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ParseRecord([]byte(tc.text))
			if err == nil {
				t.Fatalf("accepted as %+v", r)
			}
			if r != nil {
				t.Errorf("a record returned with the error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q\nwant it to contain %q", err, tc.want)
			}
			var re *RecordError
			if !errors.As(err, &re) {
				t.Errorf("error %T is not a *RecordError", err)
			}
			if errors.Is(err, ErrIllegal) != tc.illegal {
				t.Errorf("errors.Is(err, ErrIllegal) = %v, want %v", errors.Is(err, ErrIllegal), tc.illegal)
			}
		})
	}
}

// TestRecordWritersReject: the writers refuse records that would not read
// back, with the reason; Replay names the first illegal move.
func TestRecordWritersReject(t *testing.T) {
	game := func() *Record {
		r := NewRecord(8)
		p := NewPosition(8)
		for _, text := range []string{"d4", "e4", "b4-d4"} {
			m := mustMove(t, p, text)
			r.AddMove(m, "")
			p = p.Play(m)
		}
		return r
	}
	sq := func(s string) Square { x, _ := ParseSquare(s, 8); return x }
	for _, tc := range []struct {
		name   string
		modify func(r *Record)
		want   string
	}{
		{"size", func(r *Record) { r.Size = 9 }, "rules: record: board size 9 outside 4..8"},
		{"size tag", func(r *Record) { r.SetTag("Size", "8") }, `"Size" is the record's Size field`},
		{"empty key", func(r *Record) { r.Tags = append(r.Tags, Tag{"", "x"}) }, `tag key ""`},
		{"key with space", func(r *Record) { r.SetTag("My Key", "x") }, `tag key "My Key"`},
		{"duplicate", func(r *Record) { r.Tags = []Tag{{"A", "1"}, {"A", "2"}} }, "tag A appears twice"},
		{"bad utf-8", func(r *Record) { r.SetTag("Event", "\xff") }, "tag Event: value is not valid UTF-8"},
		{"bad result", func(r *Record) { r.SetTag("Result", "draw") }, `tag Result "draw"`},
		{"comments length", func(r *Record) { r.Comments = []string{"a"} }, "1 comments for 3 moves"},
		{"comment brace", func(r *Record) { r.Comments = []string{"", "}", ""} }, `rules: record: white's move 1 "e4": comment contains }`},
		{"comment utf-8", func(r *Record) { r.Comments = []string{"", "", "\xff"} }, `rules: record: black's move 2 "b4-d4": comment is not valid UTF-8`},
		{"illegal move", func(r *Record) { r.Moves[2] = Move{sq("d6"), sq("d3")} }, `rules: record: black's move 2 "d6-d3": illegal move: a jump moves an even number of squares`},
		{"move off board", func(r *Record) { r.Size = 4 }, `rules: record: white's move 1 "e4": square "e4" is off the 4x4 board`},
		{"no move", func(r *Record) { r.Moves[0] = NoMove }, `rules: record: black's move 1 "none"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := game()
			tc.modify(r)
			for format, marshal := range map[string]func() ([]byte, error){"text": r.MarshalText, "json": r.MarshalJSON} {
				if _, err := marshal(); err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s: error %v, want %q", format, err, tc.want)
				}
			}
			for _, name := range []string{"g.txt", "g.json"} {
				if _, err := r.MarshalFor(name); err == nil {
					t.Errorf("MarshalFor(%q) accepted it", name)
				}
			}
		})
	}
	// Replay and Final name the illegal move; Replay returns every position.
	r := game()
	ps, err := r.Replay()
	if err != nil || len(ps) != 4 || ps[0] != NewPosition(8) {
		t.Fatalf("Replay: %d positions, %v", len(ps), err)
	}
	final, err := r.Final()
	if err != nil || final != ps[3] {
		t.Fatalf("Final: %v, %v", final, err)
	}
	r.Moves[1] = r.Moves[0]
	if _, err := r.Final(); err == nil || !strings.Contains(err.Error(), `white's move 1 "d4": illegal move: White must remove one of its own stones`) || !errors.Is(err, ErrIllegal) {
		t.Fatalf("Final of an illegal game: %v", err)
	}
	r.Size = 0
	if _, err := r.Replay(); err == nil || !strings.Contains(err.Error(), "board size 0") {
		t.Fatalf("Replay with size 0: %v", err)
	}
}

// TestRecordTagsAndResults covers Tag, SetTag, AddMove, ResultFor, Winner.
func TestRecordTagsAndResults(t *testing.T) {
	r := NewRecord(8)
	if r.Tag("Event") != "" || r.Tags != nil || r.Size != 8 {
		t.Fatalf("NewRecord: %+v", r)
	}
	r.SetTag("Event", "a")
	r.SetTag("Date", "b")
	r.SetTag("Event", "c")
	if want := []Tag{{"Event", "c"}, {"Date", "b"}}; !reflect.DeepEqual(r.Tags, want) {
		t.Fatalf("tags %v, want %v (replaced in place, added at the end)", r.Tags, want)
	}
	if ResultFor(Black) != "1-0" || ResultFor(White) != "0-1" {
		t.Fatalf("ResultFor: %q %q", ResultFor(Black), ResultFor(White))
	}
	for _, tc := range []struct {
		result string
		winner Color
		ok     bool
	}{{"1-0", Black, true}, {"0-1", White, true}, {"*", 0, false}, {"", 0, false}} {
		r.SetTag("Result", tc.result)
		if w, ok := r.Winner(); ok != tc.ok || (ok && w != tc.winner) {
			t.Errorf("Result %q: Winner %v, %v", tc.result, w, ok)
		}
	}
	// AddMove keeps Comments nil until the first comment, then one per move.
	p := NewPosition(8)
	m1, m2, m3 := mustMove(t, p, "d4"), Move{}, Move{}
	p = p.Play(m1)
	m2 = mustMove(t, p, "e4")
	p = p.Play(m2)
	m3 = mustMove(t, p, "b4-d4")
	r.AddMove(m1, "")
	if r.Comments != nil {
		t.Fatalf("comments %q after an uncommented move", r.Comments)
	}
	r.AddMove(m2, "hole")
	r.AddMove(m3, "")
	if want := []string{"", "hole", ""}; !reflect.DeepEqual(r.Comments, want) {
		t.Fatalf("comments %q, want %q", r.Comments, want)
	}
}

// TestRecordFiles writes both formats as file names ask (MarshalFor) and
// reads them back through files.
func TestRecordFiles(t *testing.T) {
	dir := t.TempDir()
	r := randomRecord(4, 7)
	for _, name := range []string{"game.txt", "game.json", "GAME.JSON", "game"} {
		path := filepath.Join(dir, name)
		data, err := r.MarshalFor(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if isJSON := data[0] == '{'; isJSON != strings.HasSuffix(strings.ToLower(name), ".json") {
			t.Errorf("%s written as JSON: %v", name, isJSON)
		}
		if data[0] == '{' && !json.Valid(data) {
			t.Errorf("%s is not valid JSON", name)
		}
		back, err := ReadRecordFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, r) {
			t.Errorf("%s read back as %+v", name, back)
		}
	}
	// Errors name the file.
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("[Size \"8\"]\n\n1. d4 e4 2. h1-h3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadRecordFile(bad)
	if want := "rules: record " + bad + " line 3: black's move 2 \"h1-h3\": illegal move"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want prefix %q", err, want)
	}
	if _, err := ReadRecordFile(filepath.Join(dir, "missing.txt")); err == nil || !strings.HasPrefix(err.Error(), "rules: record: open ") {
		t.Errorf("missing file: %v", err)
	}
}

// FuzzParseRecord reads arbitrary bytes: no panic, and whatever is
// accepted writes in both formats and reads back as the same record.
func FuzzParseRecord(f *testing.F) {
	for _, seed := range []string{
		"[Size \"6\"]\n[Event \"e\"]\n\n1. c3 c4 2. a3-c3 {x} e4-c4 *\n",
		"[Size \"4\"]\n[Result \"0-1\"]\n\n1. a1 b1 2. a3-a1 b3-b1 3. d2-b2 d3-b3 0-1\n",
		"[Size \"8\"]\n\n1. d4 e4 2. b4-d4 2... e6-e4 3. f4-d9\n",
		"{\"size\": 8, \"moves\": [\"d4\", \"e4\"], \"comments\": [\"\", \"c\"]}",
		"{\"size\": 5, \"tags\": [{\"key\": \"Seed\", \"value\": \"1\"}]}",
		"[Board \"7x6\"]\n[Start \"gap\"]\n\n1. d6-d4 b5-d5 *\n",
		"[Board \"size-7\"]\n[Start \"removal\"]\n\n1. d4 c4 2. b4-d4 *\n",
		"[Start \"gap\"]\n[Board \"5x8\"]\n\n1. c7-c5 {c} *\n",
		"[Board \"6x6\"]\n[Start \"removal\"]\n\n1. c3 c4 *\n",
		"[Board \"9x8\"]\n\n1. e6-e4 *\n",
		"{\"board\": \"7x6\", \"start\": \"gap\", \"moves\": [\"d6-d4\"]}",
		"{\"board\": \"4x7/removal\", \"moves\": [\"a1\"]}",
		"[Board \"9x8\"]\n[Start \"gap\"]\n\n1. e7-e5 e2-e4 {c} *\n",
		"[Board \"size-15\"]\n\n1. h4-h6 h9-h7 2. f8-h8 *\n",
		"[Board \"16x16\"]\n[Result \"0-1\"]\n\n1. h8 h9 0-1\n",
		"{\"board\": \"11x8\", \"moves\": [\"f7-f5\", \"f2-f4\"]}",
		"{\"board\": \"12x12\", \"moves\": [\"l12\", \"k12\"], \"comments\": [\"\", \"p16\"]}",
		"",
		"{",
	} {
		f.Add([]byte(seed))
	}
	for seed := uint64(0); seed < 4; seed++ {
		text, _ := randomRecord(seed, 5+int(seed)%4).MarshalText()
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRecord(data)
		if err != nil {
			if r != nil || !strings.HasPrefix(err.Error(), "rules: record") {
				t.Fatalf("error %v with record %v", err, r)
			}
			return
		}
		text, err := r.MarshalText()
		if err != nil {
			t.Fatalf("accepted record does not write as text: %v", err)
		}
		js, err := r.MarshalJSON()
		if err != nil {
			t.Fatalf("accepted record does not write as JSON: %v", err)
		}
		for _, out := range [][]byte{text, js} {
			back, err := ParseRecord(out)
			if err != nil {
				t.Fatalf("%v reading back\n%s", err, out)
			}
			if !reflect.DeepEqual(back, r) {
				t.Fatalf("read back as %+v, want %+v\nvia\n%s", back, r, out)
			}
		}
	})
}

func ExampleRecord() {
	r := NewRecord(6)
	r.SetTag("Event", "example")
	p := NewPosition(6)
	comments := map[string]string{"a3-c3": "the first jump"}
	for _, text := range []string{"c3", "c4", "a3-c3", "e4-c4"} {
		m, err := ParseMove(p, text)
		if err != nil {
			fmt.Println(err)
			return
		}
		r.AddMove(m, comments[text])
		p = p.Play(m)
	}
	text, err := r.MarshalText()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(text))

	back, err := ParseRecord(text)
	if err != nil {
		fmt.Println(err)
		return
	}
	final, _ := back.Final()
	fmt.Println(len(back.Moves), "moves;", final.Turn, "to move")
	// Output:
	// [Size "6"]
	// [Event "example"]
	//
	// 1. c3 c4 2. a3-c3 {the first jump} e4-c4 *
	// 4 moves; black to move
}

// TestReadRecordFileRefusesEndlessFile: /dev/zero is refused after
// MaxRecordFile bytes instead of filling the memory (issue 47).
func TestReadRecordFileRefusesEndlessFile(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	done := make(chan error, 1)
	go func() { _, err := ReadRecordFile("/dev/zero"); done <- err }()
	select {
	case err := <-done:
		if err == nil || err.Error() != "rules: record: /dev/zero: larger than 1 MiB" {
			t.Fatalf("ReadRecordFile(/dev/zero): %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("ReadRecordFile(/dev/zero) reads on")
	}
}
