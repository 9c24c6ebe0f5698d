// Command funcfields counts the struct fields whose type is a function
// literal type (func(...) ...) in the non-test files of each package
// directory given: structs of closures where a method or a small interface
// would say more. Fields of a named function type are not counted. It
// prints each directory's count and the total, and with -v each field.
//
//	go run ./internal/testkit/cmd/funcfields [-v] DIR...
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	verbose := flag.Bool("v", false, "list the fields")
	flag.Parse()
	total := 0
	for _, dir := range flag.Args() {
		fields, err := funcFields(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "funcfields:", err)
			os.Exit(1)
		}
		if *verbose {
			for _, f := range fields {
				fmt.Println("  " + f)
			}
		}
		fmt.Printf("%s: %d\n", dir, len(fields))
		total += len(fields)
	}
	fmt.Printf("total: %d\n", total)
}

// funcFields returns "file:line: name" for each function-typed struct field
// of the non-test files of dir.
func funcFields(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(*ast.StructType)
			if !ok {
				return true
			}
			for _, field := range st.Fields.List {
				if _, ok := field.Type.(*ast.FuncType); !ok {
					continue
				}
				pos := fset.Position(field.Pos())
				if len(field.Names) == 0 {
					out = append(out, fmt.Sprintf("%s:%d: (embedded)", pos.Filename, pos.Line))
				}
				for _, id := range field.Names {
					out = append(out, fmt.Sprintf("%s:%d: %s", pos.Filename, pos.Line, id.Name))
				}
			}
			return true
		})
	}
	return out, nil
}
