// Command konane trains, evaluates and plays the Kōnane Zero agent.
//
// Run "konane help" for the list of subcommands and "konane help CMD" for
// one of them. Each subcommand lives in its own file of this folder: its
// command (name, usage, help) and its run function, runArena for arena and
// so on, which declares and parses its own flags.
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
// function. Each file of this package declares one and registers it with
// register.
type command struct {
	name  string
	usage string // e.g. "perft --board B --depth D"
	short string // one line for the command list
	long  string // paragraphs for "konane help CMD"
	// run parses the command's flags and arguments (the command line
	// after its name) and runs it; see runFunc.
	run runFunc
}

// runFunc runs one subcommand: its flags and arguments, and the program's
// standard input and outputs (tests substitute them). Each declares its
// flags on newFlagSet and reads them with parseFlags.
type runFunc func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("konane: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

func main() {
	ctx, stop := interrupts(context.Background(), os.Stderr)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		status, said := exitStatus(err)
		if !errors.Is(err, flag.ErrHelp) && !said {
			fmt.Fprintln(os.Stderr, "konane:", err)
		}
		os.Exit(status)
	}
}

// statusError is an error whose program exits with status rather than 1:
// with err nil, one whose message its child process printed already.
type statusError struct {
	status int
	err    error
}

func (e *statusError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.status)
	}
	return e.err.Error()
}

func (e *statusError) Unwrap() error { return e.err }

// exitStatus returns the exit status of a command's error (1 unless a
// statusError says otherwise), and whether its message was printed.
func exitStatus(err error) (status int, said bool) {
	if e, ok := errors.AsType[*statusError](err); ok {
		return e.status, e.err == nil
	}
	return 1, false
}

// interrupts returns a context that the first SIGINT or SIGTERM cancels,
// so that a command stops cleanly (its files are written atomically);
// a second signal exits at once with status 130, for a command stuck
// where a context does not reach (a read of a FIFO without a writer).
// stop unregisters the signals.
func interrupts(parent context.Context, stderr io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sig:
			cancel()
		case <-done:
			return
		}
		select {
		case s := <-sig:
			fmt.Fprintf(stderr, "konane: %v again: exiting at once\n", s)
			os.Exit(130)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(done)
		cancel()
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
	return c.run(ctx, args, stdin, stdout, stderr)
}

// help prints the long help of a command, or the list of commands.
func help(args []string, w io.Writer) error {
	if len(args) == 0 {
		printCommands(w)
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		return fmt.Errorf("help: unknown command %q", args[0])
	}
	// The command prints its help, flags included, when asked with -help.
	if err := c.run(context.Background(), []string{"-help"}, nil, w, w); !errors.Is(err, flag.ErrHelp) {
		return fmt.Errorf("help: %s did not print its help (%v)", c.name, err)
	}
	return nil
}

// newFlagSet returns the flag set of the command called name; its errors
// go to stderr.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("konane "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // parseFlags prints the usage
	return fs
}

// parseFlags parses the flags of fs (made by newFlagSet) from args. Flags
// may stand before, between and after the positional arguments, which
// fs.Args then returns in their order; "--" ends the flags, so that every
// argument after it is positional. After a bad flag it prints the
// command's usage line; for -h or -help, its whole help with the flags,
// and it returns flag.ErrHelp.
func parseFlags(fs *flag.FlagSet, args []string) error {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return flagError(fs, err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		// Parse stops at the first positional argument, which it leaves
		// in rest, or after a "--", which it consumes.
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" && !(used > 1 && takesValue(fs, args[used-2])) {
			positional = append(positional, rest...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	// Parsing only a "--" leaves the positional arguments in fs.Args.
	return fs.Parse(append([]string{"--"}, positional...))
}

// takesValue reports whether arg is a flag of fs that takes the next
// argument as its value ("--out" but not "--out=x" or a boolean "--json").
func takesValue(fs *flag.FlagSet, arg string) bool {
	name, ok := strings.CutPrefix(arg, "-")
	if !ok || strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(strings.TrimPrefix(name, "-"))
	if f == nil {
		return false
	}
	b, isBool := f.Value.(interface{ IsBoolFlag() bool })
	return !isBool || !b.IsBoolFlag()
}

// flagError prints what a parse error of fs asks for (see parseFlags)
// and returns err.
func flagError(fs *flag.FlagSet, err error) error {
	c := commands[strings.TrimPrefix(fs.Name(), "konane ")]
	w := fs.Output()
	if !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(w, "usage: konane %s\n(run \"konane help %s\" for details)\n", c.usage, c.name)
		return err
	}
	fmt.Fprintf(w, "usage: konane %s\n\n%s\n", c.usage, strings.TrimSpace(c.long))
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(w, "\nflags:")
		fs.PrintDefaults()
	}
	return err
}

// explicit returns the names of the flags of fs that the command line
// set. A default a user did not set adapts to the flags they did set;
// only explicit flags can conflict, and such an error names them.
func explicit(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
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

// parseNoArgs is parseFlags for a command that takes no positional
// argument: one given is a usage error (noArgs).
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	return noArgs(fs)
}

// noArgs is the usage error of a command that takes no positional
// argument when fs, parsed, holds one; nil when it holds none.
func noArgs(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		return usageError(strings.TrimPrefix(fs.Name(), "konane "), "unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// usageError reports a bad argument or flag value of a command.
func usageError(cmd, format string, a ...any) error {
	return fmt.Errorf("%s: %s", cmd, fmt.Sprintf(format, a...))
}
