package dbcloud_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeImports are the packages a README snippet may use without importing
// them; snippets are fragments, as in the README.
var readmeImports = []string{
	"context", "crypto/tls", "errors", "fmt", "io", "log", "log/slog", "net/http", "os", "os/signal", "testing", "time",
	"github.com/dbcloud/dbcloud-go", "github.com/dbcloud/dbcloud-go/dbcloudtest",
}

// readmeStubs are the functions the README's snippets call as "your code".
var readmeStubs = map[string]string{
	"deploy": "func deploy(ctx context.Context, client *dbcloud.Client, projectID, name string) (*dbcloud.Service, error) { return nil, nil }",
	"handle": "func handle(dbcloud.LogEntry) {}",
	"store":  "func store(string) {}",
	"load":   "func load() string { return \"\" }",
}

// fenced matches a ```go block.
var fenced = regexp.MustCompile("(?ms)^```go\n(.*?)^```")

// TestReadmeSnippetsCompile compiles every Go snippet of README.md and of
// the guides in docs/, each as a package of its own in a build overlay: a
// fragment inside a function that has ctx, client, projectID, serviceID, id,
// apiKey, publicKey, secretKey, baseURL, ids, ts (an oauth2.TokenSource),
// svc, rs and password, a snippet with top-level declarations as a file.
// Only "declared and not used" and "imported and not used" are forgiven: a
// fragment stands for part of a program.
func TestReadmeSnippetsCompile(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the go command")
	}
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("the go command is needed to compile the README's snippets: ", err)
	}
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	overlay := map[string]string{}
	var pkgs []string
	type origin struct {
		doc  string // the Markdown file
		line int    // its line before the snippet's first line in the Go file
	}
	where := map[string]origin{} // Go file name -> where its snippet is
	readmeSnippets := 0
	for n, doc := range append([]string{"README.md"}, docs...) {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range fenced.FindAllSubmatchIndex(text, -1) {
			code := string(text[m[2]:m[3]])
			if strings.Contains(code, `"github.com/dbcloud/dbcloud-go/otel"`) {
				// Another module, which this one does not require: the otel
				// module's ExampleNew is that snippet, compiled and run there.
				continue
			}
			if n == 0 {
				readmeSnippets++
			}
			line := 1 + strings.Count(string(text[:m[2]]), "\n")
			name := fmt.Sprintf("snippet%d_line%d", n, line)
			src, offset := snippetFile(code)
			file := filepath.Join(dir, name+".go")
			if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			pkg := filepath.Join(wd, "internal", "readmesnippets", name)
			overlay[filepath.Join(pkg, name+".go")] = file
			pkgs = append(pkgs, "./internal/readmesnippets/"+name)
			where[name+".go"] = origin{doc, line - offset - 1}
		}
	}
	if readmeSnippets < 5 || len(pkgs) < 10 {
		t.Fatalf("found %d Go snippets in README.md and %d in all; the pattern no longer matches", readmeSnippets, len(pkgs))
	}
	ov, _ := json.Marshal(map[string]any{"Replace": overlay})
	ovFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ovFile, ov, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(gocmd, append([]string{"build", "-gcflags=-e", "-overlay", ovFile}, pkgs...)...)
	out, _ := cmd.CombinedOutput()
	report := regexp.MustCompile(`(snippet\d+_line\d+\.go):(\d+):\d+: (.*)`)
	for _, l := range strings.Split(string(out), "\n") {
		m := report.FindStringSubmatch(l)
		switch {
		case m == nil:
			if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "#") {
				t.Errorf("go build: %s", l)
			}
		case strings.HasPrefix(m[3], "declared and not used"), strings.Contains(m[3], "imported and not used"):
		default:
			var n int
			fmt.Sscan(m[2], &n)
			t.Errorf("%s:%d: %s", where[m[1]].doc, where[m[1]].line+n, m[3])
		}
	}
}

// snippetFile returns a snippet as a Go file, and how many lines come
// before the snippet's first line in it.
func snippetFile(code string) (string, int) {
	var imports []string
	var body []string
	topLevel := false
	inImport := false
	for _, l := range strings.Split(code, "\n") {
		switch {
		case inImport:
			if strings.HasPrefix(l, ")") {
				inImport = false
			} else if p := strings.Trim(strings.TrimSpace(l), `"`); p != "" {
				imports = append(imports, p)
			}
			l = ""
		case strings.HasPrefix(l, "import ("):
			inImport, topLevel = true, true
			l = ""
		case strings.HasPrefix(l, "import "):
			imports = append(imports, strings.Trim(strings.TrimPrefix(l, "import "), `"`))
			topLevel = true
			l = ""
		case strings.HasPrefix(l, "func ") || strings.HasPrefix(l, "type ") || strings.HasPrefix(l, "var "):
			topLevel = true
		}
		body = append(body, l) // blanked lines keep the numbering
	}
	var b strings.Builder
	b.WriteString("package snippet\n\nimport (\n")
	seen := map[string]bool{}
	if strings.Contains(code, "deploy.") {
		// The deploy package, whose name the stub deploy below would clash
		// with: a snippet that uses the one gets no stub of the other.
		imports = append(imports, "github.com/dbcloud/dbcloud-go/deploy")
	}
	if strings.Contains(code, "mydeploy.") {
		// A guide's test of the example deploy, as a user tests their own.
		imports = append(imports, "github.com/dbcloud/dbcloud-go/examples/mydeploy")
	}
	for _, p := range append(imports, readmeImports...) {
		if !seen[p] {
			seen[p] = true
			fmt.Fprintf(&b, "\t%q\n", p)
		}
	}
	b.WriteString(")\n\n")
	for name, stub := range readmeStubs {
		if !strings.Contains(code, "func "+name+"(") && !(name == "deploy" && strings.Contains(code, "deploy.")) {
			b.WriteString(stub + "\n")
		}
	}
	if !topLevel {
		// The snippet in a block of its own: what it declares shadows the
		// parameters instead of clashing with them.
		b.WriteString("func snippet(ctx context.Context, client *dbcloud.Client, projectID, serviceID, id, apiKey string,\n")
		b.WriteString("\tpublicKey, secretKey, baseURL string, ids []string,\n")
		// ts stands for an oauth2.TokenSource, which this module does not
		// require: the same method and fields.
		b.WriteString("\tts interface{ Token() (*struct{ AccessToken string; Expiry time.Time }, error) },\n")
		b.WriteString("\tsvc *dbcloud.Service, rs *dbcloud.ReadReplicaSet, password dbcloud.Secret) error {\n{\n")
	}
	offset := strings.Count(b.String(), "\n")
	b.WriteString(strings.Join(body, "\n"))
	if !topLevel {
		b.WriteString("\n}\nreturn nil\n}\n")
	}
	return b.String(), offset
}
