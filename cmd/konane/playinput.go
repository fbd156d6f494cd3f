package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// lineInput reads the player's lines, each after its prompt. On a real
// terminal it edits the line in place (arrow keys, history with ↑/↓,
// Ctrl-D or Ctrl-C to leave) through golang.org/x/term; any other input,
// such as a pipe, is read line by line as it comes.
type lineInput struct {
	prompts chan string
	lines   chan inputLine
	width   int       // the terminal's columns, or 80
	out     io.Writer // where the game writes: the terminal when editing
	restore func()    // leaves raw mode
	read    func(prompt string) (string, error)
}

type inputLine struct {
	text string
	err  error // io.EOF at the end of the input
}

// newLineInput prepares the input. Line editing is used when stdin and
// stdout are both the same kind of real terminal (*os.File for which
// term.IsTerminal holds); the terminal is then in raw mode until close.
func newLineInput(stdin io.Reader, stdout io.Writer) *lineInput {
	in := &lineInput{prompts: make(chan string), lines: make(chan inputLine), width: 80, out: stdout, restore: func() {}}
	fin, ok1 := stdin.(*os.File)
	fout, ok2 := stdout.(*os.File)
	if ok1 && ok2 && term.IsTerminal(int(fin.Fd())) && term.IsTerminal(int(fout.Fd())) {
		if state, err := term.MakeRaw(int(fin.Fd())); err == nil {
			in.restore = func() { term.Restore(int(fin.Fd()), state) }
			tt := term.NewTerminal(struct {
				io.Reader
				io.Writer
			}{&homeEndReader{r: fin}, fout}, "")
			if w, h, err := term.GetSize(int(fout.Fd())); err == nil && w > 0 {
				in.width = w
				tt.SetSize(w, h)
			}
			in.out = tt
			in.read = func(prompt string) (string, error) {
				tt.SetPrompt(prompt)
				return tt.ReadLine()
			}
			return in
		}
	}
	sc := bufio.NewScanner(stdin)
	in.read = func(prompt string) (string, error) {
		io.WriteString(stdout, prompt)
		if sc.Scan() {
			return sc.Text(), nil
		}
		if err := sc.Err(); err != nil {
			return "", err
		}
		return "", io.EOF
	}
	return in
}

// start reads in its own goroutine, one line per prompt sent, so that an
// interrupt is seen while the input blocks.
func (in *lineInput) start(ctx context.Context) {
	go func() {
		for {
			var prompt string
			select {
			case prompt = <-in.prompts:
			case <-ctx.Done():
				return
			}
			text, err := in.read(prompt)
			select {
			case in.lines <- inputLine{text, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
}

// next shows the prompt and waits for the line.
func (in *lineInput) next(ctx context.Context, prompt string) (inputLine, error) {
	select {
	case in.prompts <- prompt:
	case <-ctx.Done():
		return inputLine{}, ctx.Err()
	}
	select {
	case l := <-in.lines:
		return l, nil
	case <-ctx.Done():
		return inputLine{}, ctx.Err()
	}
}

// wrapWords writes prefix and the words, breaking lines only between
// words so that none is longer than width (a word longer than a line
// stands alone); continuation lines are indented by indent spaces.
func wrapWords(prefix string, words []string, width, indent int) string {
	var b strings.Builder
	b.WriteString(prefix)
	col := len([]rune(prefix))
	for i, w := range words {
		sep := " "
		if i == 0 && (prefix == "" || strings.HasSuffix(prefix, " ")) {
			sep = ""
		}
		if col > indent && col+len(sep)+len(w) > width {
			b.WriteString("\n" + strings.Repeat(" ", indent))
			col, sep = indent, ""
		}
		b.WriteString(sep + w)
		col += len(sep) + len(w)
	}
	b.WriteString("\n")
	return b.String()
}

// homeEndKeys are the encodings of Home and End that terminals send
// besides ESC[H and ESC[F, the only ones golang.org/x/term reads: tmux,
// screen and the Linux console (ESC[1~, ESC[4~), rxvt (ESC[7~, ESC[8~) and
// the application cursor mode (ESC O H, ESC O F).
var homeEndKeys = map[string]string{
	"\x1b[1~": "\x1b[H", "\x1b[7~": "\x1b[H", "\x1bOH": "\x1b[H",
	"\x1b[4~": "\x1b[F", "\x1b[8~": "\x1b[F", "\x1bOF": "\x1b[F",
}

// homeEndReader passes the terminal's input on with every encoding of
// Home and End in homeEndKeys written as ESC[H and ESC[F. A sequence split
// between two reads is held back until its end arrives (or the input
// ends).
type homeEndReader struct {
	r       io.Reader
	pending []byte // rewritten input not yet returned
	partial []byte // the start of a sequence of homeEndKeys, waiting for its end
	err     error  // the input's error, returned after pending
}

func (h *homeEndReader) Read(p []byte) (int, error) {
	for len(h.pending) == 0 {
		if h.err != nil {
			return 0, h.err
		}
		buf := make([]byte, 256)
		n, err := h.r.Read(buf)
		h.err = err
		h.pending, h.partial = rewriteHomeEnd(append(h.partial, buf[:n]...), err != nil)
	}
	n := copy(p, h.pending)
	h.pending = h.pending[n:]
	return n, nil
}

// rewriteHomeEnd rewrites the sequences of homeEndKeys in b; unless final,
// a tail of b that may be the start of one is returned apart, as partial.
func rewriteHomeEnd(b []byte, final bool) (out, partial []byte) {
	out = make([]byte, 0, len(b))
outer:
	for i := 0; i < len(b); {
		if b[i] == 0x1b {
			rest := string(b[i:])
			for seq, to := range homeEndKeys {
				if strings.HasPrefix(rest, seq) {
					out = append(out, to...)
					i += len(seq)
					continue outer
				}
				if !final && len(rest) < len(seq) && strings.HasPrefix(seq, rest) {
					return out, append([]byte(nil), b[i:]...)
				}
			}
		}
		out = append(out, b[i])
		i++
	}
	return out, nil
}
