package dbcloudotel_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestAttributesDocumented holds the package documentation's table of span
// attributes to the code: every attribute key the observer sets is
// documented (in the table, or among the metrics' attributes), and every
// row of the table names a key the observer sets.
func TestAttributesDocumented(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "observer.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string // the arguments of attribute.Key(...)
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Key" || sel.X.(*ast.Ident).Name != "attribute" {
			return true
		}
		if lit, ok := call.Args[0].(*ast.BasicLit); ok {
			k, _ := strconv.Unquote(lit.Value)
			keys = append(keys, k)
		}
		return true
	})
	if len(keys) < 10 {
		t.Fatalf("found %d attribute keys in observer.go: the search no longer matches", len(keys))
	}
	doc := f.Doc.Text()
	spans, metrics, ok := strings.Cut(doc, "# Metrics")
	if !ok {
		t.Fatal("the package documentation has no # Metrics section")
	}
	row := regexp.MustCompile(`(?m)^\t([a-z_.]+) +(call|attempt|deploy|shared read)`)
	var rows []string
	for _, m := range row.FindAllStringSubmatch(spans, -1) {
		rows = append(rows, m[1])
	}
	for _, k := range keys {
		if !slices.Contains(rows, k) && !strings.Contains(metrics, k) {
			t.Errorf("attribute %s is set by the observer but not documented", k)
		}
	}
	for _, r := range rows {
		if !slices.Contains(keys, r) {
			t.Errorf("the documentation lists attribute %s, which the observer never sets", r)
		}
	}
}
