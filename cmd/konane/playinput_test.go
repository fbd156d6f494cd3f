package main

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/term"
)

// TestHomeEnd: every encoding of Home and End that terminals send (tmux's
// ESC[1~ and ESC[4~ among them) moves to the start and the end of the
// line being edited, also when a sequence arrives split over reads.
func TestHomeEnd(t *testing.T) {
	for _, keys := range [][2]string{
		{"\x1b[H", "\x1b[F"}, {"\x1b[1~", "\x1b[4~"}, {"\x1b[7~", "\x1b[8~"}, {"\x1bOH", "\x1bOF"},
	} {
		home, end := keys[0], keys[1]
		input := "c4" + home + "f4-" + end + " x" + home + "\x1b[C\x1b[D" + end + "\r"
		for _, split := range []bool{false, true} {
			var r io.Reader = strings.NewReader(input)
			if split {
				r = iotest.OneByteReader(r)
			}
			tt := term.NewTerminal(struct {
				io.Reader
				io.Writer
			}{&homeEndReader{r: r}, io.Discard}, "")
			line, err := tt.ReadLine()
			if err != nil || line != "f4-c4 x" {
				t.Errorf("Home %q, End %q (split %v): line %q, %v; want \"f4-c4 x\"", home, end, split, line, err)
			}
		}
	}
	// Other keys and a lone Escape at the end pass unchanged.
	got, err := io.ReadAll(&homeEndReader{r: iotest.OneByteReader(strings.NewReader("a\x1b[A\x1bOx\x1b[5~\x1b"))})
	if err != nil || string(got) != "a\x1b[A\x1bOx\x1b[5~\x1b" {
		t.Errorf("other keys became %q, %v", got, err)
	}
}
