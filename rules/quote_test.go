package rules

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"d4", `"d4"`},
		{strings.Repeat("x", MaxQuote), `"` + strings.Repeat("x", MaxQuote) + `"`},
		{strings.Repeat("x", MaxQuote+1), `"` + strings.Repeat("x", MaxQuote) + `"… (101 bytes)`},
		{strings.Repeat("x", MaxQuote-1) + "é", `"` + strings.Repeat("x", MaxQuote-1) + `"… (101 bytes)`},
	} {
		if got := Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%.20q…) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestLongInputShortError: an error about a huge input quotes at most
// MaxQuote bytes of it (a 2 MB move gave a 4 MB error line).
func TestLongInputShortError(t *testing.T) {
	huge := strings.Repeat("x", 2_000_000)
	for name, in := range map[string]string{
		"move":         "[Size \"6\"]\n1. " + huge + "\n",
		"tag line":     "[" + huge + "\n",
		"tag value":    "[Size \"" + huge + "\"]\n",
		"tag key":      "[" + huge + " \"6\"]\n",
		"move number":  "[Size \"6\"]\n1" + strings.Repeat("9", 200000) + ". d4\n",
		"after result": "[Size \"6\"]\n*\n" + huge + "\n",
	} {
		_, err := ParseRecord([]byte(in))
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if msg := err.Error(); len(msg) > 3*MaxQuote+200 || !utf8.ValidString(msg) {
			t.Errorf("%s: error of %d bytes: %.300s", name, len(msg), msg)
		}
	}
	for _, text := range []string{huge, "a" + huge} {
		if _, err := ParseMove(NewPosition(6), text); err == nil || len(err.Error()) > 3*MaxQuote+200 {
			t.Errorf("ParseMove of %d bytes: error of %d bytes", len(text), len(err.Error()))
		}
		if _, err := ParseSquare(text, 6); err == nil || len(err.Error()) > 3*MaxQuote+200 {
			t.Errorf("ParseSquare of %d bytes: error of %d bytes", len(text), len(err.Error()))
		}
	}
}

// FuzzQuote: Quote is short whatever its input, and what it quotes is
// the input's beginning.
func FuzzQuote(f *testing.F) {
	f.Add("d4")
	f.Add(strings.Repeat("é", 80))
	f.Add(strings.Repeat("\xff", 200))
	f.Add("… (" + strings.Repeat("x", 200))
	f.Fuzz(func(t *testing.T, s string) {
		q := Quote(s)
		if len(q) > 4*MaxQuote+40 {
			t.Fatalf("Quote of %d bytes is %d bytes", len(s), len(q))
		}
		head := q
		if len(s) > MaxQuote {
			head = q[:strings.LastIndex(q, "… (")]
		}
		u, err := strconv.Unquote(head)
		if err != nil || !strings.HasPrefix(s, u) || len(s) <= MaxQuote && u != s {
			t.Fatalf("Quote(%q) = %s: not the input's beginning (%v)", s, q, err)
		}
	})
}
