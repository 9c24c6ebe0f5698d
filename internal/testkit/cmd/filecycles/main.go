// Command filecycles measures how the files of one Go package depend on
// each other: it type-checks the package's non-test files, draws an edge
// from a file to every file that declares a package-level name (a
// function, type, method, field, variable or constant) that it uses, and
// prints the strongly connected components of that graph, largest first. A
// component of more than one file is a set of files that all reach each
// other through their uses: none of them can be read, or moved into a
// package of its own, without the others.
//
//	go run ./internal/testkit/cmd/filecycles [-v] [package directory]
//
// It prints the size of the largest component first, so that a script can
// compare it with a bound. The directory defaults to ".".
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

func main() {
	verbose := flag.Bool("v", false, "list the edges of the largest component")
	flag.Parse()
	dir := "."
	if flag.NArg() > 0 {
		dir = flag.Arg(0)
	}
	if err := run(os.Stdout, dir, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "filecycles:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, dir string, verbose bool) error {
	files, exports, err := listPackage(dir)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, f := range files {
		af, err := parser.ParseFile(fset, filepath.Join(dir, f), nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		parsed = append(parsed, af)
	}
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: imp}
	pkg, err := conf.Check(parsed[0].Name.Name, fset, parsed, info)
	if err != nil {
		return err
	}
	fileOf := func(pos token.Pos) string { return filepath.Base(fset.Position(pos).Filename) }
	edges := map[string]map[string]bool{}
	for _, f := range files {
		edges[f] = map[string]bool{}
	}
	add := func(from token.Pos, obj types.Object) {
		if obj == nil || obj.Pkg() != pkg || !obj.Pos().IsValid() {
			return
		}
		// Only names declared at package level, and the fields and methods
		// of its types: a local variable is its own file's.
		if v, ok := obj.(*types.Var); ok && !v.IsField() && obj.Parent() != pkg.Scope() {
			return
		}
		if _, ok := obj.(*types.Func); !ok {
			if _, isVar := obj.(*types.Var); !isVar && obj.Parent() != pkg.Scope() {
				return
			}
		}
		a, b := fileOf(from), fileOf(obj.Pos())
		if a != b {
			if _, ok := edges[a]; ok {
				edges[a][b] = true
			}
		}
	}
	for id, obj := range info.Uses {
		add(id.Pos(), obj)
	}
	for sel, s := range info.Selections {
		add(sel.Sel.Pos(), s.Obj())
	}
	comps := scc(files, edges)
	sort.SliceStable(comps, func(i, j int) bool { return len(comps[i]) > len(comps[j]) })
	fmt.Fprintf(w, "largest cycle: %d of %d files\n", len(comps[0]), len(files))
	for _, c := range comps {
		if len(c) < 2 {
			continue
		}
		slices.Sort(c)
		fmt.Fprintf(w, "%d: %s\n", len(c), strings.Join(c, " "))
	}
	if verbose && len(comps[0]) > 1 {
		in := map[string]bool{}
		for _, f := range comps[0] {
			in[f] = true
		}
		for _, a := range comps[0] {
			var to []string
			for b := range edges[a] {
				if in[b] {
					to = append(to, b)
				}
			}
			slices.Sort(to)
			fmt.Fprintf(w, "  %s -> %s\n", a, strings.Join(to, " "))
		}
	}
	return nil
}

// listPackage returns the package's non-test Go files and the export data
// of every package it depends on, as the go command built them.
func listPackage(dir string) ([]string, map[string]string, error) {
	out, err := exec.Command("go", "list", "-f", "{{join .GoFiles \"\\n\"}}", dir).Output()
	if err != nil {
		return nil, nil, fmt.Errorf("go list: %w", err)
	}
	files := strings.Fields(string(out))
	out, err = exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}} {{.Export}}", dir).Output()
	if err != nil {
		return nil, nil, fmt.Errorf("go list -export: %w", err)
	}
	exports := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), " "); ok && file != "" {
			exports[path] = file
		}
	}
	return files, exports, nil
}

// scc returns the strongly connected components of the graph (Tarjan).
func scc(nodes []string, edges map[string]map[string]bool) [][]string {
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var comps [][]string
	next := 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		succ := make([]string, 0, len(edges[v]))
		for w := range edges[v] {
			succ = append(succ, w)
		}
		slices.Sort(succ)
		for _, w := range succ {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			comps = append(comps, comp)
		}
	}
	for _, v := range nodes {
		if _, seen := index[v]; !seen {
			visit(v)
		}
	}
	return comps
}
