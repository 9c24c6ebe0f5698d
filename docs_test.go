package dbcloud_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A code block of the README or of a guide in docs/ that shows output is a
// ```go block followed by an ```output block (any other block right after
// a Go block, but Go or shell, is refused: it reads as output, and
// unchecked output is how a guide comes to show the output of another
// program than its own). TestDocsOutputIsExampleOutput
// holds each to an Example function: the Go block's lines stand, in order
// and together, in the body of an Example whose "// Output:" is the output
// block, so that go test runs the code and checks the output the reader
// sees. A guide may show setup the Example needs (a dbcloudtest server)
// or leave it out; what it shows runs as shown.

// docBlock is one fenced block of a Markdown file.
type docBlock struct {
	lang string
	text string
	line int // of its opening fence
}

// docBlocks returns the fenced blocks of a Markdown file, in order.
var fence = regexp.MustCompile("(?ms)^```([a-z]*)\n(.*?)^```")

func docBlocks(text string) []docBlock {
	var out []docBlock
	for _, m := range fence.FindAllStringSubmatchIndex(text, -1) {
		out = append(out, docBlock{
			lang: text[m[2]:m[3]],
			text: text[m[4]:m[5]],
			line: 1 + strings.Count(text[:m[0]], "\n"),
		})
	}
	return out
}

// docExample is an Example function: its body's lines, trimmed, and its
// expected output.
type docExample struct {
	name   string
	body   []string
	output string
}

// docExamples parses the Example functions of the module's test files that
// hold any (the root, deploy, dbcloudtest, the otel module, examples).
func docExamples(t *testing.T) []docExample {
	t.Helper()
	var files []string
	for _, pattern := range []string{"*_test.go", "*/*_test.go", "*/*/*_test.go"} {
		m, err := filepath.Glob(filepath.Join(moduleRoot, pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	var out []docExample
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), "func Example") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, ex := range doc.Examples(f) {
			fn := exampleFunc(f, ex.Name)
			if fn == nil || ex.Output == "" && !ex.EmptyOutput {
				continue
			}
			body := string(src[fset.Position(fn.Body.Lbrace).Offset+1 : fset.Position(fn.Body.Rbrace).Offset])
			out = append(out, docExample{name: ex.Name, body: codeLines(body), output: ex.Output})
		}
	}
	return out
}

// exampleFunc finds the declaration of the Example named name (doc.Example
// names it without its "Example" prefix).
func exampleFunc(f *ast.File, name string) *ast.FuncDecl {
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "Example"+name {
			return fn
		}
	}
	return nil
}

// codeLines is code's lines without their indentation, blank lines left out.
func codeLines(code string) []string {
	var out []string
	for l := range strings.Lines(code) {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// contains reports whether want's lines stand, together and in order, in
// have.
func contains(have, want []string) bool {
	for i := 0; i+len(want) <= len(have); i++ {
		if slices.Equal(have[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// trimOutput is an output as go test compares it: lines without trailing
// spaces, no leading or trailing blank lines.
func trimOutput(s string) string {
	var lines []string
	for l := range strings.Lines(s) {
		lines = append(lines, strings.TrimRight(l, " \t\r\n"))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func TestDocsOutputIsExampleOutput(t *testing.T) {
	t.Parallel()
	docs, err := filepath.Glob(filepath.Join(moduleRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	examples := docExamples(t)
	shown := 0
	for _, name := range append([]string{filepath.Join(moduleRoot, "README.md")}, docs...) {
		text, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(moduleRoot, name)
		blocks := docBlocks(string(text))
		for i, b := range blocks {
			switch {
			case b.lang == "output" && (i == 0 || blocks[i-1].lang != "go"):
				t.Errorf("%s:%d: an output block that follows no Go block", rel, b.line)
				continue
			case b.lang != "go" && b.lang != "sh" && b.lang != "output" && i > 0 && blocks[i-1].lang == "go":
				// What follows a Go block reads as what it prints.
				t.Errorf("%s:%d: a %q block after a Go block: fence what the code prints as output, checked against an Example", rel, b.line, b.lang)
				continue
			case b.lang != "output":
				continue
			}
			shown++
			code, want := codeLines(blocks[i-1].text), trimOutput(b.text)
			var found, bodyOnly []string
			for _, ex := range examples {
				if !contains(ex.body, code) {
					continue
				}
				if trimOutput(ex.output) == want {
					found = append(found, ex.name)
				} else {
					bodyOnly = append(bodyOnly, ex.name)
				}
			}
			switch {
			case len(found) > 0:
			case len(bodyOnly) > 0:
				t.Errorf("%s:%d: the output shown is not the output of Example%s, whose body holds the code", rel, b.line, bodyOnly[0])
			default:
				t.Errorf("%s:%d: no Example holds the Go block of line %d: make one whose body holds it and whose // Output: is the block", rel, b.line, blocks[i-1].line)
			}
		}
	}
	if shown == 0 {
		t.Error("no output block found: the check checks nothing")
	}
}
