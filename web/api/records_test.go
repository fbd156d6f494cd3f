package api

import (
	"errors"
	"strings"
	"testing"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/web/messages"
)

// TestReadRecordSize: a bare move list (no [Size] tag, as other sites
// show games) is read on the first size of 8, 6, 4, 5, 7 on which every
// move is legal; when none fits, the message names the move that fails
// where the moves get farthest, never a "?" for an unknown line.
func TestReadRecordSize(t *testing.T) {
	for _, tc := range []struct {
		text string
		size int
	}{
		{"1. d4 e4 2. b4-d4", 8},                  // legal on 8x8 and 6x6: the standard first
		{"1. d4 d3 2. b4-d4 *", 8},                // a result at the end
		{"1. c3 c4 2. a3-c3", 6},                  // c3 is no corner nor centre of 8x8
		{"d4 e4 b4-d4", 8},                        // no move numbers
		{"1. b2 b1 2. b4-b2", 4},                  // b2 is removable on 4x4 only
		{"[Event \"x\"]\n\n1. c3 c4 2. a3-c3", 6}, // other tags, no Size
	} {
		rec, err := readRecord(tc.text)
		if err != nil {
			t.Errorf("%q: %v", tc.text, err)
			continue
		}
		if rec.Size != tc.size {
			t.Errorf("%q read on %dx%d, want %dx%d", tc.text, rec.Size, rec.Size, tc.size, tc.size)
		}
	}
	c, err := messages.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text, key string
		args      map[string]string
	}{
		{"1. d4 e4 2. zz", "error.recordNoSizeBlack", map[string]string{"size": "8", "n": "3", "pair": "2", "move": "zz"}},
		{"1. c3 c4 2. a3-c3 zz", "error.recordNoSizeWhite", map[string]string{"size": "6", "n": "4", "pair": "2", "move": "zz"}},
		{"hello", "error.recordNoSizeBlack", map[string]string{"size": "8", "n": "1", "pair": "1", "move": "hello"}},
		{"1. d4 e4 {never closed", "error.record", map[string]string{"line": "1"}},
		{"[Size \"6\"]\n\n1. d4 b1", "error.recordMoveWhite", map[string]string{"n": "2", "pair": "1", "move": "b1"}},
		{`{"size": 6, "moves": 1}`, "error.record", map[string]string{"line": "1"}},
	} {
		_, err := readRecord(tc.text)
		var ae *apiError
		if !errors.As(err, &ae) || ae.msg.Code != tc.key || len(ae.msg.Args) != len(tc.args) {
			t.Errorf("%q: %v; want %s %v", tc.text, err, tc.key, tc.args)
			continue
		}
		for k, v := range tc.args {
			if ae.msg.Args[k] != v {
				t.Errorf("%q: %s = %q, want %q", tc.text, k, ae.msg.Args[k], v)
			}
		}
		for _, code := range messages.Codes() {
			if text := c.Render(code, ae.msg).Text; strings.ContainsAny(text, "?{}") && !strings.Contains(text, "[Size") {
				t.Errorf("%s: %q has a placeholder left", code, text)
			}
		}
	}
	if _, err := rules.ParseRecord([]byte("1. d4")); !errors.Is(err, rules.ErrNoSize) {
		t.Errorf("a bare move list: %v, want rules.ErrNoSize", err)
	}
}
