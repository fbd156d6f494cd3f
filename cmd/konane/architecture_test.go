package main

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// modulePath is the import path of the module's root.
const modulePath = "github.com/konanezero/konane"

// goPackages returns the packages of the module under repoRoot (every
// folder with a non-test .go file, outside testdata, hidden folders and
// nested modules), each with the packages of the module it imports.
func goPackages(t *testing.T) map[string][]string {
	t.Helper()
	pkgs := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != repoRoot && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != repoRoot {
				return filepath.SkipDir // a module of its own (deploy, tools)
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(repoRoot, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		if _, ok := pkgs[pkg]; !ok {
			pkgs[pkg] = nil
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if dep, ok := strings.CutPrefix(p, modulePath+"/"); ok {
				pkgs[pkg] = append(pkgs[pkg], dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// architectureRow is a row of the package table of docs/architecture.md:
// | `pkg` | what it owns |
var architectureRow = regexp.MustCompile("^\\| `([a-z0-9/]+)` \\| (.+) \\|$")

// TestArchitecture: docs/architecture.md has one row per package of the
// module, no row for a package that does not exist, and its rows are in
// dependency order (a package imports only packages of rows above it).
func TestArchitecture(t *testing.T) {
	pkgs := goPackages(t)
	if _, ok := pkgs["rules"]; !ok || len(pkgs) < 10 {
		t.Fatalf("found %d packages; is the walk broken?", len(pkgs))
	}
	checkArchitecture(t, readDoc(t, "docs/architecture.md"), pkgs)
}

func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkArchitecture reports, through t, what the rows of doc miss or
// misorder of pkgs.
func checkArchitecture(t testing.TB, doc string, pkgs map[string][]string) {
	row := map[string]int{}
	for _, line := range strings.Split(doc, "\n") {
		m := architectureRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if _, dup := row[m[1]]; dup {
			t.Errorf("docs/architecture.md: package %s has two rows", m[1])
		}
		row[m[1]] = len(row)
	}
	for pkg, deps := range pkgs {
		at, ok := row[pkg]
		if !ok {
			t.Errorf("docs/architecture.md: package %s has no row (say what it owns, below the packages it imports)", pkg)
			continue
		}
		for _, dep := range deps {
			if d, ok := row[dep]; ok && d > at {
				t.Errorf("docs/architecture.md: %s imports %s, whose row comes after it", pkg, dep)
			}
		}
	}
	for pkg := range row {
		if _, ok := pkgs[pkg]; !ok {
			t.Errorf("docs/architecture.md: a row for %s, which is no package", pkg)
		}
	}
}

// TestArchitectureChecker: the check catches a package without a row, a
// row out of order and a row for no package.
func TestArchitectureChecker(t *testing.T) {
	doc := "| `rules` | the game |\n| `web` | the page |\n| `solver` | proofs |\n| `gone` | nothing |\n"
	pkgs := map[string][]string{"rules": nil, "solver": {"rules"}, "web": {"solver"}, "new": nil}
	rec := &recorder{TB: t}
	checkArchitecture(rec, doc, pkgs)
	for _, want := range []string{"package new has no row", "web imports solver, whose row comes after it", "a row for gone, which is no package"} {
		if !strings.Contains(strings.Join(rec.errs, "\n"), want) {
			t.Errorf("the check did not report %q; it reported %q", want, rec.errs)
		}
	}
	if len(rec.errs) != 3 {
		t.Errorf("reported %d errors, want 3: %q", len(rec.errs), rec.errs)
	}
}

// recorder keeps the errors of a check instead of failing the test.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestResultsNameNoMachinePaths: the result files say what was measured
// with the command, commit and load, never a path of the machine they
// were measured on.
func TestResultsNameNoMachinePaths(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(repoRoot, "docs", "results", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no result files: %v", err)
	}
	machine := regexp.MustCompile(`(^|[\s(` + "`" + `'"=])/(work|tmp|root|home)/`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if machine.MatchString(line) {
				t.Errorf("%s:%d names a path of one machine: %.80s", filepath.Base(f), i+1, strings.TrimSpace(line))
			}
		}
	}
}

// docGoBudget is the most lines the module's doc.go files may hold in
// all: they state each package's contract; manuals, walk-throughs and
// measurements live in docs/.
const docGoBudget = 500

// TestDocGoBudget: the doc.go files of the module's packages hold at
// most docGoBudget lines together.
func TestDocGoBudget(t *testing.T) {
	total, files := 0, 0
	for pkg := range goPackages(t) {
		b, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(pkg), "doc.go"))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		total += strings.Count(string(b), "\n")
		files++
	}
	if files < 10 {
		t.Fatalf("found %d doc.go files; is the walk broken?", files)
	}
	if total > docGoBudget {
		t.Errorf("the doc.go files hold %d lines, more than %d: state contracts there, move manuals and examples to docs/", total, docGoBudget)
	}
	t.Logf("%d doc.go files, %d lines", files, total)
}
