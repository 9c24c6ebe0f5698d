package dbcloud_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// readmeMaxLines bounds README.md: it is the landing page (the two
// commands, a first program, the contents, short sections); what grows
// goes to a guide in docs/, linked.
const readmeMaxLines = 400

func TestReadmeLength(t *testing.T) {
	t.Parallel()
	text, err := os.ReadFile(filepath.Join(moduleRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(text), "\n"); n > readmeMaxLines {
		t.Errorf("README.md is %d lines, want at most %d: move what grew to a guide in docs/ and link it", n, readmeMaxLines)
	}
}

// TestDocLinks checks every relative link of README.md and of the guides in
// docs/: the file or folder it names exists, and its #anchor, if any, is
// the anchor of a heading of the Markdown file it names (as GitHub makes
// anchors). Links to other sites are not followed.
func TestDocLinks(t *testing.T) {
	t.Parallel()
	docs, err := filepath.Glob(filepath.Join(moduleRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := append([]string{filepath.Join(moduleRoot, "README.md")}, docs...)
	anchors := map[string]map[string]bool{} // Markdown file -> its headings' anchors
	anchorsOf := func(file string) (map[string]bool, error) {
		if a, ok := anchors[file]; ok {
			return a, nil
		}
		text, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		anchors[file] = headingAnchors(string(text))
		return anchors[file], nil
	}
	checked := 0
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(moduleRoot, file)
		for _, l := range markdownLinks(string(text)) {
			if strings.Contains(l.target, "://") || strings.HasPrefix(l.target, "mailto:") {
				continue
			}
			checked++
			path, anchor, _ := strings.Cut(l.target, "#")
			target := file
			if path != "" {
				target = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s:%d: link %q: %s does not exist", rel, l.line, l.target, path)
				continue
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(target, ".md") {
				t.Errorf("%s:%d: link %q: an anchor in a file that is not Markdown", rel, l.line, l.target)
				continue
			}
			a, err := anchorsOf(target)
			if err != nil {
				t.Fatal(err)
			}
			if !a[anchor] {
				t.Errorf("%s:%d: link %q: no heading of %s has the anchor #%s", rel, l.line, l.target, filepath.Base(target), anchor)
			}
		}
	}
	if checked < 20 {
		t.Errorf("checked %d relative links: the pattern no longer finds them", checked)
	}
}

// mdLink is a link of a Markdown file: its target and its line.
type mdLink struct {
	target string
	line   int
}

var (
	inlineLink = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	refLink    = regexp.MustCompile(`^\s*\[[^\]]+\]:\s*(\S+)`)
	codeSpan   = regexp.MustCompile("`[^`]*`")
	linkText   = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// markdownLinks returns the links of a Markdown text, outside code blocks
// and code spans.
func markdownLinks(text string) []mdLink {
	var out []mdLink
	inFence := false
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		l = codeSpan.ReplaceAllString(l, "")
		for _, m := range inlineLink.FindAllStringSubmatch(l, -1) {
			out = append(out, mdLink{strings.Trim(m[1], "<>"), i + 1})
		}
		if m := refLink.FindStringSubmatch(l); m != nil {
			out = append(out, mdLink{m[1], i + 1})
		}
	}
	return out
}

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown text: the heading's text in lower case, without its Markdown
// (code spans' backquotes, a link's target), its punctuation left out but
// for hyphens and underscores, spaces made hyphens; a repeated anchor gets
// -1, -2, ...
func headingAnchors(text string) map[string]bool {
	out := map[string]bool{}
	inFence := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") {
			inFence = !inFence
			continue
		}
		h := strings.TrimLeft(l, "#")
		if inFence || len(h) == len(l) || len(l)-len(h) > 6 || !strings.HasPrefix(h, " ") {
			continue
		}
		h = linkText.ReplaceAllString(strings.TrimSpace(h), "$1")
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		anchor := b.String()
		for n := 1; out[anchor]; n++ {
			anchor = fmt.Sprintf("%s-%d", b.String(), n)
		}
		out[anchor] = true
	}
	return out
}
