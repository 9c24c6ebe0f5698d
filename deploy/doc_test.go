package deploy_test

import (
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// Progress.String's doc shows log lines as go doc shows them: one code
// block, each line as written (none read as a list item, as a line that
// begins with "+" or "-" would be, and the poll line apart, indented).
func TestProgressDocAsGoDocShowsIt(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "progress.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var text string
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "String" && fn.Recv != nil {
			text = fn.Doc.Text()
		}
	}
	var code []*comment.Code
	for _, b := range new(comment.Parser).Parse(text).Content {
		switch b := b.(type) {
		case *comment.List:
			t.Errorf("go doc shows a list: %+v", b)
		case *comment.Code:
			code = append(code, b)
		}
	}
	if len(code) != 1 {
		t.Fatalf("%d code blocks, want the example's one:\n%s", len(code), text)
	}
	lines := strings.Split(strings.TrimSuffix(code[0].Text, "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "+ create service") || !strings.Contains(lines[1], `     service "orders" (svc-1): QUEUED`) || !strings.HasSuffix(lines[2], ": done") {
		t.Errorf("the example as go doc shows it:\n%s", code[0].Text)
	}
	printed := string((&comment.Printer{}).Text(new(comment.Parser).Parse(text)))
	if strings.Contains(printed, "\n  - ") || !strings.Contains(printed, lines[1]) {
		t.Errorf("go doc's text:\n%s", printed)
	}
}
