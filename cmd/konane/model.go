package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/runfiles"
)

func init() {
	register(&command{
		name:  "model",
		usage: "model info FILE | model new --board B [--filters F] [--blocks B] [--captures=false] [--seed S] FILE",
		short: "show or create network model files",
		long: `Model works on network model files (safetensors with metadata).

"model info FILE" checks the file (checksum, versions, shapes) and prints its
metadata: board size, architecture, generation, training steps, parent
model, seed and creation time, with the parameter count and the
floating-point operations of one evaluation.

"model new FILE" writes a freshly initialised network (generation 0).

Example: konane model new --board 6 --seed 1 gen0.safetensors && konane model info gen0.safetensors
    file:        gen0.safetensors
    board:       6x6
    arch:        res32x2gp-v32-e2 (32 filters, 2 blocks, 32 value units, global pooling)
    ...`,
		run: runModel,
	})
}

// runModel is "konane model info|new FILE".
func runModel(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("model", stderr)
	def := net.DefaultConfig(0)
	board := addBoardFlag(fs, "for new, required; a network is for one of "+squareBoards()+" yet")
	filters := fs.Int("filters", def.Filters, "channels of the residual tower, for new")
	blocks := fs.Int("blocks", def.Blocks, "residual blocks, for new")
	captures := fs.Bool("captures", def.Captures, "read the capture input planes (input encoding 2), for new")
	seed := fs.Uint64("seed", 1, "initialisation seed, for new")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError("model", "missing action: info or new")
	}
	action, rest := fs.Arg(0), fs.Args()[1:]
	if len(rest) != 1 {
		return usageError("model", "%s takes exactly one FILE argument, got %d", action, len(rest))
	}
	switch action {
	case "info":
		m, err := net.Load(rest[0])
		if err != nil {
			if perr := runfiles.PointerError(rest[0]); perr != nil {
				err = perr
			}
			return fmt.Errorf("model: %w", err)
		}
		printModelInfo(stdout, rest[0], m)
		return nil
	case "new":
		size, err := board.get("model")
		if err == nil && size == 0 {
			err = board.required("model")
		}
		if err != nil {
			return err
		}
		cfg := net.DefaultConfig(size)
		cfg.Filters, cfg.Blocks, cfg.Captures = *filters, *blocks, *captures
		m, err := net.New(cfg, *seed)
		if err != nil {
			return fmt.Errorf("model: %w", err)
		}
		if err := m.Save(rest[0]); err != nil {
			return fmt.Errorf("model: %w", err)
		}
		printModelInfo(stdout, rest[0], m)
		return nil
	}
	return usageError("model", "unknown action %q: want info or new", action)
}

func printModelInfo(w io.Writer, path string, m *net.Model) {
	cfg, md := m.Config(), m.Meta()
	pool := "no global pooling"
	if cfg.GlobalPool {
		pool = "global pooling"
	}
	parent := printable(md.Parent)
	if parent == "" {
		parent = "(none)"
	}
	fmt.Fprintf(w, "file:        %s\n", printable(path))
	fmt.Fprintf(w, "format:      version %d, input encoding %d\n", md.FormatVersion, md.EncodingVersion)
	if cfg.MultiBoard() {
		fmt.Fprintf(w, "board:       every board of %d..%d files and ranks and the boards above %dx%d it was trained on; trained on %s\n", rules.MinSize, rules.MaxSize, rules.MaxSize, rules.MaxSize, net.BoardList(m.Boards()))
	} else {
		fmt.Fprintf(w, "board:       %dx%d\n", md.Size, md.Size)
	}
	fmt.Fprintf(w, "arch:        %s (%d filters, %d blocks, %d value units, %s)\n", printable(md.Arch), cfg.Filters, cfg.Blocks, cfg.ValueHidden, pool)
	fmt.Fprintf(w, "parameters:  %d\n", m.NumParams())
	fmt.Fprintf(w, "flops/eval:  %d\n", cfg.FLOPs())
	fmt.Fprintf(w, "generation:  %d\n", md.Generation)
	fmt.Fprintf(w, "steps:       %d\n", md.Steps)
	fmt.Fprintf(w, "parent:      %s\n", parent)
	fmt.Fprintf(w, "seed:        %d\n", md.Seed)
	fmt.Fprintf(w, "created:     %s\n", md.Created.UTC().Format(time.RFC3339))
}

// printable returns a string read from a file as it may reach a terminal:
// unchanged when it is valid UTF-8 without control characters, else
// quoted with Go escapes (an ANSI escape then shows as \x1b and cannot
// move the cursor or fake lines).
func printable(s string) string {
	if !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(s)
	}
	return s
}
