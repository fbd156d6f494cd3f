// Command konane trains, evaluates and plays the Kōnane Zero agent.
//
// Run "konane help" for the list of subcommands and "konane help CMD" for
// one of them. Each subcommand lives in its own file of this folder.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

// command is one subcommand: its name, one-line usage, long help and run
// function. Each file of this package registers one with register.
type command struct {
	name  string
	usage string // e.g. "perft --size N --depth D"
	short string // one line for the command list
	long  string // paragraphs for "konane help CMD"
	// flags declares the command's flags on fs and returns the function
	// that runs it once fs has parsed the arguments.
	flags func(fs *flag.FlagSet) func(ctx context.Context, env *env) error
}

// env is what a command sees of the outside world; tests substitute it.
type env struct {
	args   []string // positional arguments left after the flags
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("konane: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "konane:", err)
		}
		os.Exit(1)
	}
}

// run executes one command line (without the program name).
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		printCommands(stderr)
		return errors.New("no command given")
	}
	name, args := args[0], args[1:]
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		return help(args, stdout)
	}
	c, ok := commands[name]
	if !ok {
		return fmt.Errorf("unknown command %q (run \"konane help\" for the list)", name)
	}
	fs := flag.NewFlagSet("konane "+c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: konane %s\n(run \"konane help %s\" for details)\n", c.usage, c.name)
	}
	runFn := c.flags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	return runFn(ctx, &env{args: fs.Args(), stdin: stdin, stdout: stdout, stderr: stderr})
}

func help(args []string, w io.Writer) error {
	if len(args) == 0 {
		printCommands(w)
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		return fmt.Errorf("help: unknown command %q", args[0])
	}
	fmt.Fprintf(w, "usage: konane %s\n\n%s\n", c.usage, strings.TrimSpace(c.long))
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	c.flags(fs)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(w, "\nflags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	return nil
}

func printCommands(w io.Writer) {
	fmt.Fprintln(w, "konane: Kōnane Zero, a self-taught Kōnane player\n\nusage: konane COMMAND [flags] [args]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].short)
	}
	fmt.Fprintln(w, "\nrun \"konane help COMMAND\" for details of one command")
}

// usageError reports a bad argument or flag value of a command.
func usageError(cmd, format string, a ...any) error {
	return fmt.Errorf("%s: %s", cmd, fmt.Sprintf(format, a...))
}
