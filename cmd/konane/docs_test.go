package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// The documents for people: README.md and every page under docs/. Their
// relative links must resolve (files, and #anchors to headings of
// Markdown files), and every konane command shown in their code blocks
// must name a real subcommand and only flags that subcommand declares,
// with values its flag set accepts.

// repoRoot is the module root, two levels above this package; the
// documents live there, not in testdata.
const repoRoot = "../.."

// docFiles returns README.md and docs/**/*.md, relative to repoRoot.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(repoRoot, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, err := filepath.Rel(repoRoot, path)
			if err != nil {
				return err
			}
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// mdDoc is a Markdown file split into prose lines and code lines.
type mdDoc struct {
	prose []mdLine // outside code blocks
	code  []mdLine // inside fenced or indented code blocks, continuations joined
}

type mdLine struct {
	n    int // 1-based line number (of the first line, for joined code)
	text string
}

// parseMarkdown sorts the lines of a Markdown text into prose and code.
// Code blocks are fenced (``` or ~~~) or indented by four spaces (or a
// tab) after a blank line; a code line ending in a backslash continues on
// the next, as in a shell.
func parseMarkdown(src string) mdDoc {
	var d mdDoc
	var fence string
	prevBlank, prevCode := true, false
	var pending *mdLine // a code line continued by a trailing backslash
	addCode := func(n int, text string) {
		if pending != nil {
			pending.text += " " + strings.TrimSpace(text)
		} else {
			pending = &mdLine{n, text}
		}
		if strings.HasSuffix(strings.TrimRight(pending.text, " "), "\\") {
			pending.text = strings.TrimSuffix(strings.TrimRight(pending.text, " "), "\\")
			return
		}
		d.code = append(d.code, *pending)
		pending = nil
	}
	for i, line := range strings.Split(src, "\n") {
		n := i + 1
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
				prevBlank, prevCode = false, false
				continue
			}
			addCode(n, line)
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		indented := strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")
		if indented && trimmed != "" && (prevBlank || prevCode) {
			addCode(n, line)
			prevBlank, prevCode = false, true
			continue
		}
		if trimmed == "" {
			prevBlank = true // a blank line inside an indented block keeps it open
			continue
		}
		d.prose = append(d.prose, mdLine{n, line})
		prevBlank, prevCode = false, false
	}
	if pending != nil {
		d.code = append(d.code, *pending)
	}
	return d
}

var (
	linkRE       = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	codeSpanRE   = regexp.MustCompile("`[^`]*`")
	headingRE    = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	externalLink = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`) // https:, mailto:, ...
)

// anchors returns the GitHub anchors of the headings of a Markdown text:
// lower case, punctuation dropped, spaces as hyphens, "-1", "-2" added to
// repeats.
func anchors(d mdDoc) map[string]bool {
	set := map[string]bool{}
	seen := map[string]int{}
	for _, l := range d.prose {
		m := headingRE.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(m[2]) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if k := seen[a]; k > 0 {
			set[fmt.Sprintf("%s-%d", a, k)] = true
		} else {
			set[a] = true
		}
		seen[a]++
	}
	return set
}

func TestDocsLinks(t *testing.T) {
	checkDocs(t, "links", func(file string, d mdDoc) (checked int) {
		for _, l := range d.prose {
			text := codeSpanRE.ReplaceAllString(l.text, "")
			for _, m := range linkRE.FindAllStringSubmatch(text, -1) {
				checked++
				if err := checkLink(file, d, m[1]); err != nil {
					t.Errorf("%s:%d: link %s: %v", file, l.n, m[1], err)
				}
			}
		}
		return checked
	})
}

// checkDocs reads every document (docFiles) and gives it to check, which
// returns how many of what it checked there; fewer than 20 in all fail t
// (the parser would be broken).
func checkDocs(t *testing.T, what string, check func(file string, d mdDoc) int) {
	t.Helper()
	checked := 0
	for _, file := range docFiles(t) {
		d, ok := readDocFile(file)
		if !ok {
			t.Fatalf("%s: cannot read", file)
		}
		checked += check(file, d)
	}
	t.Logf("%d %s checked", checked, what)
	if checked < 20 {
		t.Errorf("found only %d %s in the documents; is the parser broken?", checked, what)
	}
}

// checkLink checks one link target of the document file (whose parsed
// text is d): a relative path must exist, and an anchor into a Markdown
// file must name one of its headings.
func checkLink(file string, d mdDoc, target string) error {
	if externalLink.MatchString(target) {
		return nil
	}
	path, anchor, _ := strings.Cut(target, "#")
	rel := file
	if path != "" {
		rel = filepath.Join(filepath.Dir(file), path)
		if _, err := os.Stat(filepath.Join(repoRoot, rel)); err != nil {
			return errors.New("no such file")
		}
	}
	if anchor == "" || !strings.HasSuffix(rel, ".md") {
		return nil
	}
	td := d
	if rel != file {
		var ok bool
		if td, ok = readDocFile(rel); !ok {
			return errors.New("cannot read its target")
		}
	}
	if !anchors(td)[anchor] {
		return fmt.Errorf("no heading #%s in %s", anchor, rel)
	}
	return nil
}

// readDocFile reads and parses the Markdown file rel (relative to repoRoot).
func readDocFile(rel string) (mdDoc, bool) {
	src, err := os.ReadFile(filepath.Join(repoRoot, rel))
	if err != nil {
		return mdDoc{}, false
	}
	return parseMarkdown(string(src)), true
}

// shellWords splits a command line as a shell would, roughly: words
// separated by blanks, quotes removed, the operators | || && ; as words
// of their own, and a # that starts a word beginning a comment.
func shellWords(line string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				j = len(line) - i - 1
			}
			cur.WriteString(line[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '\\' && i+1 < len(line):
			cur.WriteByte(line[i+1])
			inWord = true
			i++
		case c == ' ' || c == '\t':
			flush()
		case c == '#' && !inWord:
			flush()
			return words
		case c == '|' || c == '&' || c == ';':
			flush()
			op := string(c)
			if i+1 < len(line) && (line[i+1] == '|' || line[i+1] == '&') {
				op += string(line[i+1])
				i++
			}
			words = append(words, op)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return words
}

// konaneCommands returns the argument lists of the konane invocations on
// a command line: after "konane", "./konane" or "go run ./cmd/konane" at
// the start of a pipeline stage (environment assignments before it
// allowed).
func konaneCommands(line string) [][]string {
	var out [][]string
	var stage []string
	end := func() {
		for len(stage) > 0 && strings.Contains(stage[0], "=") && !strings.HasPrefix(stage[0], "-") {
			stage = stage[1:] // VAR=value
		}
		switch {
		case len(stage) >= 1 && (stage[0] == "konane" || stage[0] == "./konane"):
			out = append(out, stage[1:])
		case len(stage) >= 3 && stage[0] == "go" && stage[1] == "run" && stage[2] == "./cmd/konane":
			out = append(out, stage[3:])
		}
		stage = nil
	}
	for _, w := range shellWords(line) {
		switch w {
		case "|", "||", "&&", "&", ";":
			end()
		default:
			stage = append(stage, w)
		}
	}
	end()
	return out
}

// commandFlags returns the flags a subcommand declares, and which of them
// are boolean, read from the help its own flag set prints.
func commandFlags(name string) (flags map[string]bool, err error) {
	c, ok := commands[name]
	if !ok {
		return nil, fmt.Errorf("no command %q", name)
	}
	var buf bytes.Buffer
	if err := c.run(context.Background(), []string{"-help"}, nil, &buf, &buf); !errors.Is(err, flag.ErrHelp) {
		return nil, fmt.Errorf("%s -help: %v", name, err)
	}
	flags = map[string]bool{} // name → boolean
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		line := sc.Text()
		// flag.PrintDefaults: "  -name type" for a flag with a value,
		// "  -name" or "  -x\tusage" for a boolean.
		if !strings.HasPrefix(line, "  -") {
			continue
		}
		fields := strings.Fields(strings.SplitN(line[2:], "\t", 2)[0])
		flags[strings.TrimPrefix(fields[0], "-")] = len(fields) == 1
	}
	return flags, nil
}

// checkCommand checks the arguments of one konane invocation: the
// subcommand exists, every flag it is given exists on it, and the flags
// before the first argument parse (their values included) with the
// subcommand's own flag set.
func checkCommand(args []string) error {
	if len(args) == 0 {
		return nil // konane alone prints the commands
	}
	name, args := args[0], args[1:]
	if name == "help" {
		if len(args) > 0 {
			if _, ok := commands[args[0]]; !ok {
				return fmt.Errorf("help: no command %q", args[0])
			}
		}
		return nil
	}
	flags, err := commandFlags(name)
	if err != nil {
		return err
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
			continue
		}
		f, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if _, ok := flags[f]; !ok && f != "h" && f != "help" {
			return fmt.Errorf("%s: no flag -%s", name, f)
		}
	}
	// The leading flags, through the real flag set: "-help" after them
	// makes the command stop once they have parsed.
	var lead []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
			break
		}
		lead = append(lead, a)
		f := strings.TrimLeft(a, "-")
		if !strings.Contains(f, "=") && !flags[f] && i+1 < len(args) {
			i++
			lead = append(lead, args[i])
		}
	}
	var out bytes.Buffer
	err = commands[name].run(context.Background(), append(lead, "-help"), nil, &out, &out)
	if !errors.Is(err, flag.ErrHelp) {
		return fmt.Errorf("%s %s: %v", name, strings.Join(lead, " "), err)
	}
	return nil
}

func TestDocsCommands(t *testing.T) {
	checkDocs(t, "konane commands", func(file string, d mdDoc) (checked int) {
		for _, l := range d.code {
			for _, args := range konaneCommands(l.text) {
				checked++
				if err := checkCommand(args); err != nil {
					t.Errorf("%s:%d: konane %s: %v", file, l.n, strings.Join(args, " "), err)
				}
			}
		}
		return checked
	})
}

// TestDocsCheckers shows that the checks catch what they should.
func TestDocsCheckers(t *testing.T) {
	src := "# Top\n\n## A heading (`x`), with: punctuation\n\n## Top\n\n" +
		"text [ok](#a-heading-x-with-punctuation) [again](#top-1) [bad](#nope)\n\n" +
		"    konane play --size 6 \\\n        --level hard\n" +
		"    printf 'd4' | go run ./cmd/konane gtp --bogus 1   # comment --also\n\n" +
		"```\nRUN=x konane train --time 30x\n```\n"
	d := parseMarkdown(src)
	a := anchors(d)
	for _, want := range []string{"top", "a-heading-x-with-punctuation", "top-1"} {
		if !a[want] {
			t.Errorf("anchor %q missing from %v", want, a)
		}
	}
	if a["nope"] {
		t.Error("anchor nope present")
	}
	var cmds [][]string
	for _, l := range d.code {
		cmds = append(cmds, konaneCommands(l.text)...)
	}
	want := "[[play --size 6 --level hard] [gtp --bogus 1] [train --time 30x]]"
	if got := fmt.Sprint(cmds); got != want {
		t.Fatalf("commands %s, want %s", got, want)
	}
	if err := checkCommand(cmds[0]); err != nil {
		t.Errorf("good command refused: %v", err)
	}
	if err := checkCommand(cmds[1]); err == nil || !strings.Contains(err.Error(), "no flag -bogus") {
		t.Errorf("unknown flag: got %v", err)
	}
	if err := checkCommand(cmds[2]); err == nil {
		t.Error("bad duration accepted")
	}
	if err := checkCommand([]string{"nosuch"}); err == nil {
		t.Error("unknown command accepted")
	}
}

// TestResultsIndexed: docs/results/README.md links every result file of
// docs/results in both of its tables, by topic and by date.
func TestResultsIndexed(t *testing.T) {
	index := readDoc(t, "docs/results/README.md")
	topic, date, ok := strings.Cut(index, "\n## By date\n")
	if !ok || !strings.Contains(topic, "\n## By topic\n") {
		t.Fatal("docs/results/README.md: no \"## By topic\" followed by \"## By date\"")
	}
	files, err := filepath.Glob(filepath.Join(repoRoot, "docs", "results", "20*.md"))
	if err != nil || len(files) < 10 {
		t.Fatalf("found %d result files (%v); is the glob broken?", len(files), err)
	}
	for _, f := range files {
		link := "(" + filepath.Base(f) + ")"
		if !strings.Contains(topic, link) {
			t.Errorf("docs/results/README.md: %s has no row by topic", filepath.Base(f))
		}
		if !strings.Contains(date, link) {
			t.Errorf("docs/results/README.md: %s has no row by date", filepath.Base(f))
		}
	}
}
