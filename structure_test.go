package dbcloud_test

import (
	"bytes"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The bounds of the package's shape, held by tests so that the surface and
// the structure do not grow back by accretion: one name for each job (at
// most 290 exported names: 235 before the live API's surface of issue 45,
// whose 14 operations brought 54 names, their sub-clients, types and
// constants), the documentation in at most 1,750 lines of go doc -all (each
// rule stated once and linked), and methods or small interfaces rather
// than structs of closures (at most 12 function-typed struct fields in the
// package and its runtime mechanisms). go test -v -run 'TestExported|TestDocLength|TestFunctionFields'
// prints the figures.

// parseNonTest parses the non-test Go files of dir.
func parseNonTest(t *testing.T, dir string, mode parser.Mode) (*token.FileSet, []*ast.File) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(moduleRoot, dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, mode)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return fset, files
}

// TestExportedNames counts the package's exported names as go/doc sees
// them: constants, variables, functions, types and methods.
func TestExportedNames(t *testing.T) {
	t.Parallel()
	fset, files := parseNonTest(t, ".", parser.ParseComments)
	d, err := doc.NewFromFiles(fset, files, "github.com/dbcloud/dbcloud-go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			names = append(names, v.Names...)
		}
	}
	values(d.Consts)
	values(d.Vars)
	for _, f := range d.Funcs {
		names = append(names, f.Name)
	}
	for _, typ := range d.Types {
		names = append(names, typ.Name)
		values(typ.Consts)
		values(typ.Vars)
		for _, f := range typ.Funcs {
			names = append(names, f.Name)
		}
		for _, m := range typ.Methods {
			names = append(names, typ.Name+"."+m.Name)
		}
	}
	n := len(names) // go/doc keeps the exported ones
	t.Logf("%d exported names", n)
	if n > 290 {
		t.Errorf("%d exported names, want at most 290: where a new name generalises one, replace it", n)
	}
}

// TestDocLength counts the lines of go doc -all of the package.
func TestDocLength(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the go command")
	}
	out, err := exec.Command("go", "doc", "-all", moduleRoot).Output()
	if err != nil {
		t.Fatal(err)
	}
	n := bytes.Count(out, []byte("\n"))
	t.Logf("go doc -all: %d lines", n)
	if n > 1750 {
		t.Errorf("go doc -all is %d lines, want at most 1,750: state each rule once and link it", n)
	}
}

// TestFunctionFields counts the struct fields of a function literal type
// in the package and its runtime mechanisms.
func TestFunctionFields(t *testing.T) {
	t.Parallel()
	total := 0
	for _, dir := range []string{".", "internal/pipeline", "internal/poll", "internal/logwalk"} {
		fset, files := parseNonTest(t, dir, parser.SkipObjectResolution)
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				st, ok := n.(*ast.StructType)
				if !ok {
					return true
				}
				for _, field := range st.Fields.List {
					if _, ok := field.Type.(*ast.FuncType); ok {
						total += max(1, len(field.Names))
						t.Logf("%s: %v", fset.Position(field.Pos()), field.Names)
					}
				}
				return true
			})
		}
	}
	t.Logf("%d function-typed struct fields", total)
	if total > 12 {
		t.Errorf("%d function-typed struct fields, want at most 12: a method or a small interface says more", total)
	}
}
