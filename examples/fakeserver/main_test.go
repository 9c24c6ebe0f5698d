package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// serve runs the command with args on a free port and returns the
// variables of its export line and a function that stops it and returns
// its exit code and stderr.
func serve(t *testing.T, args ...string) (map[string]string, func() (int, string)) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(cancel)
	out, outW := io.Pipe()
	var stderr strings.Builder
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), outW, &stderr)
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
	return env, func() (int, string) {
		cancel()
		select {
		case c := <-code:
			return c, stderr.String()
		case <-time.After(5 * time.Second):
			t.Fatal("run did not return after cancel")
			return 0, ""
		}
	}
}

func TestRun(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	env, stop := serve(t, "-step", "0", "-seed", "5")
	base, key, project := env["DBCLOUD_BASE_URL"], env["DBCLOUD_API_KEY"], env["DBCLOUD_PROJECT_ID"]
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
	if c, stderr := stop(); c != 0 {
		t.Errorf("exit code %d, stderr %q", c, stderr)
	}
}

// With -log-every, every service writes a line at that interval: a
// follower sees them arrive, one interval apart.
func TestRunWritesLogLines(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	env, stop := serve(t, "-step", "0", "-log-every", "2ms")
	c, err := dbcloud.NewClient(env["DBCLOUD_API_KEY"], dbcloud.WithBaseURL(env["DBCLOUD_BASE_URL"]))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	project := env["DBCLOUD_PROJECT_ID"]
	svc, err := c.Services.Create(t.Context(), project, &dbcloud.CreateServiceRequest{Name: "db"})
	if err != nil {
		t.Fatal(err)
	}
	var got []time.Time
	for e, err := range c.Services.FollowLogs(t.Context(), project, svc.ServiceID, &dbcloud.LogOptions{PollInterval: time.Millisecond}) {
		if err != nil {
			t.Fatal(err)
		}
		if got = append(got, e.Timestamp); len(got) == 3 {
			break
		}
	}
	for i := 1; i < len(got); i++ {
		if d := got[i].Sub(got[i-1]); d != 2*time.Millisecond {
			t.Errorf("lines %v apart, want 2ms: %v", d, got)
		}
	}
	c.CloseIdleConnections()
	if code, stderr := stop(); code != 0 {
		t.Errorf("exit code %d, stderr %q", code, stderr)
	}
}

func TestRunBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-nope"}, {"-step", "-1s"}, {"extra"}, {"-step", "soon"}, {"-log-every", "-1s"}} {
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
