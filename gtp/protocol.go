package gtp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxLine bounds a command line; longer lines are answered with a failure.
const maxLine = 4096

// command is one parsed command line.
type command struct {
	id   string // the numeric id, "" without one
	name string
	args []string
}

// preprocess applies the protocol's rules to a raw line: control
// characters other than tab and newline removed, tabs made spaces, the
// comment from # on removed.
func preprocess(line string) string {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case r < 32 || r == 127:
			return -1
		}
		return r
	}, line)
}

// parse reads a preprocessed, non-empty line.
func parse(line string) command {
	f := strings.Fields(line)
	var c command
	if _, err := strconv.ParseUint(f[0], 10, 63); err == nil {
		c.id, f = f[0], f[1:]
	}
	if len(f) > 0 {
		c.name, c.args = f[0], f[1:]
	}
	return c
}

// errQuit is returned by the quit handler to end Serve after its answer.
var errQuit = errors.New("quit")

// Serve reads commands from r and writes the answers to w until quit, the
// end of the input or ctx ends (a command it interrupts answers "?id
// interrupted" first). It
// returns nil then, and an error only when reading or writing fails.
func (e *Engine) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	// Lines are read in their own goroutine so that the end of ctx is seen
	// while the input blocks. It ends with the input, or when Serve
	// returns (quit) unless it is blocked reading r.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type line struct {
		text    string
		tooLong bool
	}
	lines := make(chan line)
	readErr := make(chan error, 1)
	go func() {
		defer close(lines)
		in := bufio.NewReaderSize(r, maxLine)
		for {
			text, tooLong, err := readLine(in)
			if err == nil || (err == io.EOF && (text != "" || tooLong)) {
				select {
				case lines <- line{text, tooLong}:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				if err != io.EOF {
					readErr <- fmt.Errorf("gtp: reading commands: %w", err)
				}
				return
			}
		}
	}()
	out := bufio.NewWriter(w)
	for {
		var l line
		var ok bool
		select {
		case l, ok = <-lines:
		case <-ctx.Done():
		}
		if !ok {
			select {
			case err := <-readErr:
				return err
			default:
				return nil
			}
		}
		text := preprocess(l.text)
		if strings.TrimSpace(text) == "" && !l.tooLong {
			continue
		}
		var c command
		var result string
		var failure error
		if l.tooLong {
			c.id = leadingID(text)
			failure = fmt.Errorf("command longer than %d bytes", maxLine)
		} else if c = parse(text); c.name == "" {
			failure = errors.New("missing command name after the id")
		} else {
			result, failure = e.execute(ctx, c)
			if failure != nil && ctx.Err() != nil {
				// Stopped (SIGINT), not failed: the search's own error
				// means nothing to a controller.
				respond(out, c.id, "", errors.New("interrupted"))
				if err := out.Flush(); err != nil {
					return fmt.Errorf("gtp: writing answers: %w", err)
				}
				return nil
			}
		}
		quit := errors.Is(failure, errQuit)
		if quit {
			failure = nil
		}
		respond(out, c.id, result, failure)
		if err := out.Flush(); err != nil {
			return fmt.Errorf("gtp: writing answers: %w", err)
		}
		if quit {
			return nil
		}
	}
}

// readLine reads one line without its end; a line longer than maxLine is
// read to its end and reported as tooLong, with its first maxLine bytes
// as line (where its id is).
func readLine(in *bufio.Reader) (line string, tooLong bool, err error) {
	var b []byte
	for {
		chunk, isPrefix, err := in.ReadLine()
		if len(b)+len(chunk) > maxLine {
			tooLong = true
			chunk = chunk[:maxLine-len(b)]
		}
		b = append(b, chunk...)
		if err != nil || !isPrefix {
			return string(b), tooLong, err
		}
	}
}

// leadingID is the id of a preprocessed line of which only the head was
// kept: its first field if that is a number followed by a space within
// the head (a field cut by the end of the head is no id).
func leadingID(head string) string {
	head = strings.TrimLeft(head, " ")
	end := strings.IndexByte(head, ' ')
	if end < 0 {
		return ""
	}
	if _, err := strconv.ParseUint(head[:end], 10, 63); err != nil {
		return ""
	}
	return head[:end]
}

// respond writes one answer: "=id result" or "?id message" ("=id" alone
// for an empty result), and a blank line. Blank lines inside a result
// would end it early, so they are dropped.
func respond(w io.Writer, id, result string, failure error) {
	mark := "="
	if failure != nil {
		mark, result = "?", failure.Error()
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(result, "\n"), "\n") {
		if strings.TrimSpace(l) != "" || len(lines) == 0 {
			lines = append(lines, strings.TrimRight(l, " \r"))
		}
	}
	text := strings.Join(lines, "\n")
	if !strings.HasPrefix(text, "\n") && text != "" {
		text = " " + text
	}
	fmt.Fprintf(w, "%s%s%s\n\n", mark, id, text)
}
