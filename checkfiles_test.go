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
	check := func(what string, wantOK bool, wantOut ...string) {
		t.Helper()
		cmd := exec.Command("bash", script, repo)
		cmd.Env = env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if ok := err == nil; ok != wantOK {
			t.Errorf("%s: the check passed = %v, want %v; it said:\n%s", what, ok, wantOK, out.String())
		}
		for _, w := range wantOut {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: the check said\n%s\nwant %q in it", what, out.String(), w)
			}
		}
	}

	git("init", "-q")
	write("main.go", []byte("package main\n\nfunc main() {}\n"))
	write("docs/guide.md", []byte("# A guide\n\nÜnïcödé text is text.\n"))
	write("testdata/just-under.txt", bytes.Repeat([]byte("x"), 1_000_000))
	git("add", ".")
	check("a clean repository", true, "3 tracked files")

	write("cmd/tool/tool", []byte("\x7fELF\x02\x01\x01\x00\x00\x00"))
	git("add", ".")
	check("a built binary staged", false, "binary: cmd/tool/tool")
	git("rm", "-q", "--cached", "cmd/tool/tool")
	check("the binary untracked", true)

	write("testdata/big.json", bytes.Repeat([]byte("[1],"), 300_000))
	git("add", "testdata/big.json")
	check("a file of 1.2 MB staged", false, "larger than 1 MB: testdata/big.json (1200000 bytes)")

	write(".ci/allowed-files", []byte("# test data that must be big\ntestdata/big.json  # a 1.2 MB page, to test the bound\n"))
	git("add", ".ci/allowed-files")
	check("the big file allowed", true, "1 allowed")

	git("rm", "-q", "--cached", "testdata/big.json")
	check("an allowance for a file no longer tracked", false, "lists testdata/big.json, which is not tracked")
}
