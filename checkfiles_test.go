package dbcloud_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckFilesScript runs scripts/checkfiles.sh, CI's check that no
// tracked file is binary or larger than 1 MB, on scratch repositories: a
// clean one passes; a staged binary, a staged big file and an allowance for
// a file no longer tracked each fail it, naming the file; a file listed in
// .ci/allowed-files passes.
func TestCheckFilesScript(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"git", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is needed: %v", tool, err)
		}
	}
	script := filepath.Join(moduleRoot, "scripts", "checkfiles.sh")
	repo := t.TempDir()
	// The machine's git configuration (autocrlf, attributes) stays out.
	env := append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = repo, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	write := func(name string, content []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(repo, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	// Each step changes the repository (files written, then git commands)
	// and runs the check on it.
	for _, step := range []struct {
		what   string
		write  map[string][]byte
		git    [][]string
		wantOK bool
		want   string // in the check's output
	}{
		{"a clean repository", map[string][]byte{
			"main.go":                 []byte("package main\n\nfunc main() {}\n"),
			"docs/guide.md":           []byte("# A guide\n\nÜnïcödé text is text.\n"),
			"testdata/just-under.txt": bytes.Repeat([]byte("x"), 1_000_000),
		}, [][]string{{"add", "."}}, true, "3 tracked files"},
		{"a built binary staged", map[string][]byte{"cmd/tool/tool": []byte("\x7fELF\x02\x01\x01\x00\x00\x00")},
			[][]string{{"add", "."}}, false, "binary: cmd/tool/tool"},
		{"the binary untracked", nil, [][]string{{"rm", "-q", "--cached", "cmd/tool/tool"}}, true, "3 tracked files"},
		{"a file of 1.2 MB staged", map[string][]byte{"testdata/big.json": bytes.Repeat([]byte("[1],"), 300_000)},
			[][]string{{"add", "testdata/big.json"}}, false, "larger than 1 MB: testdata/big.json (1200000 bytes)"},
		{"the big file allowed", map[string][]byte{
			".ci/allowed-files": []byte("# test data that must be big\ntestdata/big.json  # a 1.2 MB page, to test the bound\n"),
		}, [][]string{{"add", ".ci/allowed-files"}}, true, "1 allowed"},
		{"an allowance for a file no longer tracked", nil, [][]string{{"rm", "-q", "--cached", "testdata/big.json"}},
			false, "lists testdata/big.json, which is not tracked"},
	} {
		for name, content := range step.write {
			write(name, content)
		}
		for _, args := range step.git {
			git(args...)
		}
		cmd := exec.Command("bash", script, repo)
		cmd.Env = env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if ok := err == nil; ok != step.wantOK {
			t.Errorf("%s: the check passed = %v, want %v; it said:\n%s", step.what, ok, step.wantOK, out.String())
		}
		if !strings.Contains(out.String(), step.want) {
			t.Errorf("%s: the check said\n%s\nwant %q in it", step.what, out.String(), step.want)
		}
	}
}
