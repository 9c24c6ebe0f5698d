// Command apicount counts the exported names of a Go package as go/doc
// sees them in its non-test files: constants, variables, functions, types
// and methods, each name once. It prints the count, and with -v every name
// before it, so that a change to the public surface is a number that can
// be compared with a bound.
//
//	go run ./internal/testkit/cmd/apicount [-v] [package directory]
//
// The directory defaults to ".".
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	verbose := flag.Bool("v", false, "list the names")
	flag.Parse()
	dir := "."
	if flag.NArg() > 0 {
		dir = flag.Arg(0)
	}
	names, err := exported(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "apicount:", err)
		os.Exit(1)
	}
	if *verbose {
		for _, n := range names {
			fmt.Println(n)
		}
	}
	fmt.Printf("%d exported names\n", len(names))
}

// exported returns the exported names of the package in dir, each with its
// kind ("func WithProgress", "method Client.With"), sorted.
func exported(dir string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	d, err := doc.NewFromFiles(fset, files, "package")
	if err != nil {
		return nil, err
	}
	var names []string
	add := func(kind, name string) {
		if ast.IsExported(name) {
			names = append(names, kind+" "+name)
		}
	}
	values := func(vs []*doc.Value, kind string) {
		for _, v := range vs {
			for _, n := range v.Names {
				add(kind, n)
			}
		}
	}
	values(d.Consts, "const")
	values(d.Vars, "var")
	for _, f := range d.Funcs {
		add("func", f.Name)
	}
	for _, t := range d.Types {
		add("type", t.Name)
		values(t.Consts, "const")
		values(t.Vars, "var")
		for _, f := range t.Funcs {
			add("func", f.Name)
		}
		for _, m := range t.Methods {
			add("method", t.Name+"."+m.Name)
		}
	}
	sort.Strings(names)
	return names, nil
}
