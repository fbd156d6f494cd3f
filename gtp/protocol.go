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
// end of the input or ctx ends (an interrupted command fails first). It
// returns nil then, and an error only when reading or writing fails.
func (e *Engine) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	in := bufio.NewReaderSize(r, maxLine)
	out := bufio.NewWriter(w)
	for {
		line, tooLong, err := readLine(in)
		if err == io.EOF && line == "" {
			return out.Flush()
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("gtp: reading commands: %w", err)
		}
		if ctx.Err() != nil {
			return out.Flush()
		}
		line = preprocess(line)
		if strings.TrimSpace(line) == "" && !tooLong {
			continue
		}
		var c command
		var result string
		var failure error
		if tooLong {
			failure = fmt.Errorf("command longer than %d bytes", maxLine)
		} else if c = parse(line); c.name == "" {
			failure = errors.New("missing command name after the id")
		} else {
			result, failure = e.execute(ctx, c)
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
// read to its end and reported as tooLong.
func readLine(in *bufio.Reader) (line string, tooLong bool, err error) {
	var b []byte
	for {
		chunk, isPrefix, err := in.ReadLine()
		if len(b)+len(chunk) > maxLine {
			tooLong = true
		} else {
			b = append(b, chunk...)
		}
		if err != nil || !isPrefix {
			if tooLong {
				return "", true, err
			}
			return string(b), false, err
		}
	}
}

// respond writes one answer: "=id result" or "?id message", and a blank
// line. Blank lines inside a result would end it early, so they are
// dropped.
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
	fmt.Fprintf(w, "%s%s %s\n\n", mark, id, strings.Join(lines, "\n"))
}
