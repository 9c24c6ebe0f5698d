package main

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// The package doc lists the exit codes as the usage text does: the same
// codes, the same words.
func TestExitCodesDocumented(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	_, doc, _ := strings.Cut(f.Doc.Text(), "Exit codes, for a script to branch on:\n\n")
	doc, _, _ = strings.Cut(doc, "\n\n")
	usage := strings.TrimPrefix(exitCodes(), "\nExit codes:\n")
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	if flat(doc) != flat(usage) {
		t.Errorf("the package doc's exit codes:\n%s\nthe usage's:\n%s", doc, usage)
	}
}
