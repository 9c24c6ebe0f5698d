package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/leakcheck"
)

func TestRun(t *testing.T) {
	leakcheck.Check(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out, outW := io.Pipe()
	var stderr strings.Builder
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"-addr", "127.0.0.1:0", "-step", "0", "-seed", "5"}, outW, &stderr)
		outW.Close()
	}()

	// Read the banner until the export line, then keep draining.
	lines := bufio.NewScanner(out)
	var export string
	for lines.Scan() {
		if l := strings.TrimSpace(lines.Text()); strings.HasPrefix(l, "export ") {
			export = l
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	env := map[string]string{}
	for _, kv := range strings.Fields(strings.TrimPrefix(export, "export ")) {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	base, key, project := env["DBCLOUD_BASE_URL"], env["DBCLOUD_API_KEY"], env["DBCLOUD_PROJECT_ID"]
	if !strings.HasPrefix(base, "http://127.0.0.1:") || !strings.HasSuffix(base, "/v1") || key == "" || project == "" {
		t.Fatalf("export line %q", export)
	}

	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	req, _ := http.NewRequest("GET", base+"/projects/"+project+"/services", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || strings.TrimSpace(string(body)) != "[]" {
		t.Errorf("list services: %d %s", res.StatusCode, body)
	}
	tr.CloseIdleConnections()

	cancel()
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit code %d, stderr %q", c, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("run did not return after cancel")
	}
}

func TestRunBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-nope"}, {"-step", "-1s"}, {"extra"}, {"-step", "soon"}} {
		var stderr strings.Builder
		if c := run(t.Context(), args, io.Discard, &stderr); c != 2 {
			t.Errorf("%q: exit code %d, want 2", args, c)
		}
		if stderr.Len() == 0 {
			t.Errorf("%q: nothing on stderr", args)
		}
	}
	var stderr strings.Builder
	if c := run(t.Context(), []string{"-addr", "127.0.0.1:99999"}, io.Discard, &stderr); c != 1 {
		t.Errorf("unusable address: exit code %d, want 1", c)
	}
	if c := run(t.Context(), []string{"-h"}, io.Discard, &stderr); c != 0 {
		t.Errorf("-h: exit code %d, want 0", c)
	}
}
