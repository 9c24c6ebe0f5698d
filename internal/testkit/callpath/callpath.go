// Package callpath counts what one call of the SDK runs: the functions,
// and the files they are in, that execute for a single warm call, counted
// by coverage rather than read off the stack at chosen instants, so that
// a function that runs and returns before the request reaches the wire
// counts as much as one on the stack at the wire.
//
// It builds the program onecall with coverage of the module's packages
// (go build -cover), which makes each call once to warm up, then, for
// each call, clears the counters, makes that one call and writes them;
// every block that ran is mapped to the innermost function (a declared
// function or a function literal) that holds it.
package callpath

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// module is the SDK's module path.
const module = "github.com/dbcloud/dbcloud-go"

// Bounds are what the path of each call measured may hold, the most
// functions and files (Files 0: no bound): Total for the whole SDK, and
// Above for what runs above internal/pipeline (the root package and the
// other internal packages), the part a change to the operations and the
// core answers for.
var Bounds = map[string]struct{ Total, Above Bound }{
	"Get":    {Bound{15, 8}, Bound{6, 3}},
	"List":   {Bound{17, 9}, Bound{8, 0}},
	"Create": {Bound{22, 13}, Bound{12, 0}},
}

// Bound is the most functions and files a path may hold; Files 0: no
// bound.
type Bound struct{ Funcs, Files int }

// pipeline is the package Bounds' Above leaves out.
const pipeline = "internal/pipeline/"

// Calls are the calls measured, in the order printed.
var Calls = []string{"Get", "List", "Create"}

// Func is one function that ran: its name as the runtime prints it, less
// the module path (dbcloud.(*caller).run, pipeline.(*call).handle; a
// function literal is its enclosing function's name and funcN), and its
// file relative to the module's root.
type Func struct{ Name, File string }

// Path is what one call ran.
type Path struct {
	Call  string
	Funcs []Func // by file, then by position
	Files []string
}

// Check returns an error when the path is over its Total bound.
func (p Path) Check() error { return p.check(false) }

// CheckAbove returns an error when what the path runs above
// internal/pipeline is over its Above bound.
func (p Path) CheckAbove() error { return p.check(true) }

func (p Path) check(above bool) error {
	b, ok := Bounds[p.Call]
	if !ok {
		return nil
	}
	bound, funcs, files, what := b.Total, len(p.Funcs), len(p.Files), ""
	if above {
		bound, funcs, files, what = b.Above, 0, 0, " above "+pipeline
		for _, f := range p.Funcs {
			if !strings.HasPrefix(f.File, pipeline) {
				funcs++
			}
		}
		for _, f := range p.Files {
			if !strings.HasPrefix(f, pipeline) {
				files++
			}
		}
	}
	switch {
	case funcs > bound.Funcs:
		return fmt.Errorf("%s runs %d functions%s, want at most %d", p.Call, funcs, what, bound.Funcs)
	case bound.Files > 0 && files > bound.Files:
		return fmt.Errorf("%s runs functions of %d files%s, want at most %d", p.Call, files, what, bound.Files)
	}
	return nil
}

// String lists the path: a heading, then one function a line.
func (p Path) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d functions in %d files\n", p.Call, len(p.Funcs), len(p.Files))
	for _, f := range p.Funcs {
		fmt.Fprintf(&b, "  %-34s %s\n", f.File, f.Name)
	}
	return b.String()
}

// Measure builds onecall in the module at root, runs it and returns the
// path of each call, in the order given.
func Measure(root string, calls ...string) ([]Path, error) {
	tmp, err := os.MkdirTemp("", "callpath")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	pkgs, err := sdkPackages(root)
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(tmp, "onecall")
	if err := command(root, nil, "go", "build", "-cover", "-covermode=atomic", "-coverpkg="+strings.Join(pkgs, ","),
		"-o", bin, "./internal/testkit/callpath/onecall"); err != nil {
		return nil, err
	}
	counters := filepath.Join(tmp, "counters")
	// GOCOVERDIR takes what the program writes at exit, which is not used:
	// without it, the program warns.
	exitDir := filepath.Join(tmp, "exit")
	if err := os.Mkdir(exitDir, 0o755); err != nil {
		return nil, err
	}
	if err := command(root, []string{"GOCOVERDIR=" + exitDir}, bin, append([]string{"-out", counters}, calls...)...); err != nil {
		return nil, err
	}
	files := map[string]*funcIndex{}
	var paths []Path
	for _, call := range calls {
		profile := filepath.Join(tmp, call+".txt")
		if err := command(root, nil, "go", "tool", "covdata", "textfmt", "-i="+filepath.Join(counters, call), "-o="+profile); err != nil {
			return nil, err
		}
		p, err := readProfile(root, call, profile, files)
		if err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// sdkPackages lists the module's packages that onecall is built of.
func sdkPackages(root string) ([]string, error) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./internal/testkit/callpath/onecall")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	var pkgs []string
	for p := range strings.FieldsSeq(string(out)) {
		// onecall itself too: a program whose main package has no
		// counters cannot clear them. Its functions are not counted.
		if p == module || strings.HasPrefix(p, module+"/") {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs, nil
}

// command runs name in dir with env added, and returns its output in the
// error when it fails.
func command(dir string, env []string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

// readProfile reads a textfmt profile and returns the functions of the
// blocks that ran, each once. files caches the parsed files.
func readProfile(root, call, profile string, files map[string]*funcIndex) (Path, error) {
	data, err := os.ReadFile(profile)
	if err != nil {
		return Path{}, err
	}
	ran := map[Func]token.Position{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		// file.go:l1.c1,l2.c2 statements count
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) != 3 || fields[2] == "0" || strings.HasPrefix(line, "mode:") {
			continue
		}
		file, span, ok := strings.Cut(fields[0], ":")
		rel, inModule := strings.CutPrefix(file, module+"/")
		if !ok || !inModule || strings.HasPrefix(rel, "internal/testkit/") {
			continue
		}
		start, _, _ := strings.Cut(span, ",")
		l, c, _ := strings.Cut(start, ".")
		lineNo, err1 := strconv.Atoi(l)
		col, err2 := strconv.Atoi(c)
		if err1 != nil || err2 != nil {
			return Path{}, fmt.Errorf("%s: bad block %q", profile, line)
		}
		idx := files[rel]
		if idx == nil {
			if idx, err = indexFile(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
				return Path{}, err
			}
			files[rel] = idx
		}
		name, at, found := idx.innermost(lineNo, col)
		if !found {
			continue // a block outside any function: none has statements
		}
		f := Func{Name: name, File: rel}
		if prev, ok := ran[f]; !ok || at.Offset < prev.Offset {
			ran[f] = at
		}
	}
	if err := sc.Err(); err != nil {
		return Path{}, err
	}
	p := Path{Call: call}
	for f := range ran {
		p.Funcs = append(p.Funcs, f)
	}
	slices.SortFunc(p.Funcs, func(a, b Func) int {
		return cmp.Or(strings.Compare(a.File, b.File), ran[a].Offset-ran[b].Offset)
	})
	for _, f := range p.Funcs {
		if !slices.Contains(p.Files, f.File) {
			p.Files = append(p.Files, f.File)
		}
	}
	return p, nil
}

// funcIndex is the functions of one file and where each one is.
type funcIndex struct {
	fset  *token.FileSet
	funcs []span
}

type span struct {
	name       string
	start, end token.Position
}

// indexFile parses a Go file and records every function in it: declared
// functions and methods by name, function literals by their enclosing
// declaration's name and funcN, numbered in source order, as the compiler
// names them.
func indexFile(path string) (*funcIndex, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	pkg := f.Name.Name
	idx := &funcIndex{fset: fset}
	for _, decl := range f.Decls {
		outer := pkg + ".glob"
		if fd, ok := decl.(*ast.FuncDecl); ok {
			outer = pkg + "." + funcName(fd)
			idx.funcs = append(idx.funcs, span{outer, fset.Position(fd.Pos()), fset.Position(fd.End())})
		}
		n := 0
		ast.Inspect(decl, func(node ast.Node) bool {
			if lit, ok := node.(*ast.FuncLit); ok {
				n++
				idx.funcs = append(idx.funcs, span{outer + ".func" + strconv.Itoa(n), fset.Position(lit.Pos()), fset.Position(lit.End())})
			}
			return true
		})
	}
	return idx, nil
}

// funcName is a declaration's name as the runtime prints it: F, T.M or
// (*T).M.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := false
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = true, s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	name := t.(*ast.Ident).Name
	if star {
		return "(*" + name + ")." + fd.Name.Name
	}
	return name + "." + fd.Name.Name
}

// innermost returns the function whose span holds line:col most
// closely, and where it starts.
func (idx *funcIndex) innermost(line, col int) (string, token.Position, bool) {
	var best *span
	for i := range idx.funcs {
		s := &idx.funcs[i]
		if before(line, col, s.start) || !before(line, col, s.end) {
			continue
		}
		if best == nil || s.start.Offset >= best.start.Offset {
			best = s
		}
	}
	if best == nil {
		return "", token.Position{}, false
	}
	return best.name, best.start, true
}

// before reports whether line:col comes before p.
func before(line, col int, p token.Position) bool {
	return line < p.Line || line == p.Line && col < p.Column
}
