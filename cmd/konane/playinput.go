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
			}{fin, fout}, "")
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
