package main

import (
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// wait, by name or by id, waits past READY until the database answers and
// prints its host:port alone on stdout; -pooler, the pooler's.
func TestWait(t *testing.T) {
	s := newSession(t, ticking...)
	if code, _, errOut := s.run("apply", s.file("state.json", service), "-password-file", s.path("passwords")); code != exitOK {
		t.Fatal(errOut)
	}
	svc := s.srv.Services()[0]
	for _, tc := range []struct {
		args []string
		want *dbcloud.Endpoint
	}{
		{[]string{"-service", "orders", "-v"}, svc.Endpoint},
		{[]string{"-service", svc.ServiceID}, svc.Endpoint},
		{[]string{"-service", "orders", "-pooler"}, svc.PoolerEndpoint()},
	} {
		code, out, errOut := s.run(append([]string{"wait"}, tc.args...)...)
		if code != exitOK || out != tc.want.String()+"\n" || tc.want.Port == 0 {
			t.Errorf("%q: exit %d, stdout %q, want %s\nstderr:\n%s", tc.args, code, out, tc.want, errOut)
		}
	}
}

// READY is not enough: a database that keeps answering "starting up" ends
// the wait at its timeout, exit 1, saying why, with nothing on stdout.
// Two services of the name are refused rather than guessed between.
func TestWaitFails(t *testing.T) {
	s := newSession(t, dbcloudtest.WithConnectDelay(time.Hour)) // READY at once, answering in an hour
	c := s.srv.Client()
	for range 2 {
		if _, err := c.Services.Create(t.Context(), s.srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "twin"}); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := s.run("wait", "-service", "twin")
	if code != exitError || out != "" || !strings.Contains(errOut, `2 services of project proj-fake are named "twin"`) {
		t.Errorf("twins: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	id := s.srv.Services()[0].ServiceID
	code, out, errOut = s.run("wait", "-service", id, "-timeout", "300ms")
	if code != exitError || out != "" || !strings.Contains(errOut, "starting up") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1 with the database's answer", code, out, errOut)
	}
}
