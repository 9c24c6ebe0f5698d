package httpapi

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apitest"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/goroutines"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

// The request codes of PostgreSQL's SSLRequest and GSSENCRequest, as a
// client sends them.
const sslRequestCode, gssEncRequestCode = 80877103, 80877104

// liveFake is a fake with live endpoints, closed with the test.
func liveFake(t *testing.T, cfg Config) *fake {
	t.Helper()
	goroutines.Check(t)
	cfg.Model.Live = true
	f := newFake(t, cfg)
	t.Cleanup(f.model.Close) // runs before the server's Close: no request is in flight by then
	return f
}

// port returns the port of a live endpoint object, checking its host.
func livePort(t *testing.T, ep map[string]any) int {
	t.Helper()
	if ep["host"] != "127.0.0.1" {
		t.Fatalf("endpoint %v is not on loopback", ep)
	}
	return apitest.Num(t, ep, "port")
}

func startupPacket(code uint32, params ...string) []byte {
	body := binary.BigEndian.AppendUint32(nil, code)
	for _, p := range params {
		body = append(append(body, p...), 0)
	}
	if len(params) > 0 {
		body = append(body, 0)
	}
	return append(binary.BigEndian.AppendUint32(nil, uint32(4+len(body))), body...)
}

// answer connects to a live endpoint as a PostgreSQL client would (an
// SSLRequest, then a startup message) and says what the server did:
// "reset", "refused" (nothing listens), "starting up" (57P03) or "up" (an
// authentication request). Anything else fails the test.
func answer(t *testing.T, port int) string {
	t.Helper()
	reset := func(err error) string {
		t.Helper()
		if errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
			return "reset"
		}
		t.Fatalf("connection ended with %v, want a reset", err)
		return ""
	}
	conn, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "refused"
	case err != nil: // the reset can come before the dial has finished
		return reset(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := conn.Write(startupPacket(sslRequestCode)); err != nil {
		return reset(err)
	}
	var b [1]byte
	if _, err := io.ReadFull(conn, b[:]); err != nil {
		return reset(err)
	}
	if b[0] != 'N' {
		t.Fatalf("answer to SSLRequest %q, want N", b[0])
	}
	if _, err := conn.Write(startupPacket(3<<16, "user", "probe")); err != nil {
		t.Fatal(err)
	}
	msg, err := io.ReadAll(conn)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	if len(msg) < 5 || int(binary.BigEndian.Uint32(msg[1:5])) != len(msg)-1 {
		t.Fatalf("answer %q is not one whole message", msg)
	}
	body := string(msg[5:])
	switch {
	case msg[0] == 'R' && body == "\x00\x00\x00\x0aSCRAM-SHA-256\x00\x00": // AuthenticationSASL
		return "up"
	case msg[0] == 'E' && strings.Contains(body, "\x00C57P03\x00") && strings.HasSuffix(body, "\x00\x00"):
		return "starting up"
	}
	t.Fatalf("answer %q", msg)
	return ""
}

func TestLiveServiceEndpointFollowsStatus(t *testing.T) {
	f := liveFake(t, Config{Model: model.Config{Step: tstep, Connect: 30 * time.Second}})
	r := f.Send("POST", f.ServicesPath(), map[string]any{"name": "db"}).Must(t, 202)
	id := r.Obj(t)["service_id"].(string)
	port := livePort(t, apitest.Sub(t, r.Obj(t), "endpoint"))

	steps := []struct {
		advance time.Duration
		status  string
		want    string
	}{
		{0, "QUEUED", "reset"},
		{tstep, "CONFIGURING", "reset"},
		{tstep, "READY", "starting up"}, // READY began just now
		{29 * time.Second, "READY", "starting up"},
		{time.Second, "READY", "up"}, // connectDelay after READY
		{time.Hour, "READY", "up"},
	}
	for _, s := range steps {
		f.Clock.Advance(s.advance)
		f.WantStatus(id, s.status)
		if got := answer(t, port); got != s.want {
			t.Fatalf("%s after %v: endpoint %s, want %s", s.status, s.advance, got, s.want)
		}
	}
	if got := livePort(t, apitest.Sub(t, f.Get(id), "endpoint")); got != port {
		t.Errorf("port moved from %d to %d", port, got)
	}

	// Stop and start: refused while PAUSING and PAUSED, warming up again after READY.
	f.Send("POST", f.SvcPath(id)+"/stop", nil).Must(t, 202)
	if got := answer(t, port); got != "reset" {
		t.Errorf("PAUSING: %s", got)
	}
	f.Clock.Advance(tstep)
	f.WantStatus(id, "PAUSED")
	if got := answer(t, port); got != "reset" {
		t.Errorf("PAUSED: %s", got)
	}
	f.Send("POST", f.SvcPath(id)+"/start", nil).Must(t, 202)
	f.Clock.Advance(tstep)
	f.WantStatus(id, "READY")
	if got := answer(t, port); got != "starting up" {
		t.Errorf("just started: %s", got)
	}
	f.Clock.Advance(30 * time.Second)
	if got := answer(t, port); got != "up" {
		t.Errorf("started 30 s ago: %s", got)
	}

	// Deleted: reset while DELETING, nothing listening once gone.
	if err := f.model.SetStatus(id, "DELETED"); err != nil {
		t.Fatal(err)
	}
	if got := answer(t, port); got != "reset" {
		t.Errorf("DELETED: %s", got)
	}
	if err := f.model.SetStatus(id, "READY"); err != nil {
		t.Fatal(err)
	}
	f.Send("DELETE", f.SvcPath(id), nil).Must(t, 202)
	if got := answer(t, port); got != "reset" {
		t.Errorf("DELETING: %s", got)
	}
	f.Clock.Advance(tstep)
	f.Send("GET", f.SvcPath(id), nil).Must(t, 404) // the read that removes it closes its endpoint
	if got := answer(t, port); got != "refused" {
		t.Errorf("gone: %s", got)
	}
}

func TestLivePoolerAndReplicaSetEndpoints(t *testing.T) {
	f := liveFake(t, Config{Model: model.Config{Step: tstep, Connect: 5 * time.Second}})
	id := f.Ready(nil)
	f.Clock.Advance(5 * time.Second)

	f.Send("POST", f.SvcPath(id)+"/enablePooler", nil).Must(t, 200)
	svc := f.Get(id)
	direct := livePort(t, apitest.Sub(t, svc, "endpoint"))
	pooler := livePort(t, apitest.Sub(t, apitest.Sub(t, svc, "connection_pooler"), "endpoint"))
	if pooler == direct {
		t.Fatalf("pooler and database share port %d", pooler)
	}
	if got := answer(t, pooler); got != "up" {
		t.Errorf("pooler: %s", got)
	}
	f.Send("POST", f.SvcPath(id)+"/disablePooler", nil).Must(t, 200)
	if got := answer(t, pooler); got != "reset" {
		t.Errorf("disabled pooler: %s", got)
	}
	f.Send("POST", f.SvcPath(id)+"/enablePooler", nil).Must(t, 200)
	if again := livePort(t, apitest.Sub(t, apitest.Sub(t, f.Get(id), "connection_pooler"), "endpoint")); again != pooler {
		t.Errorf("re-enabled pooler moved from %d to %d", pooler, again)
	}

	sets := f.SvcPath(id) + "/replicaSets"
	rs := f.Send("POST", sets, map[string]any{"name": "r", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}).Must(t, 202).Obj(t)
	setID := rs["id"].(string)
	setPort := livePort(t, apitest.Sub(t, rs, "endpoint"))
	if got := answer(t, setPort); got != "reset" {
		t.Errorf("creating set: %s", got)
	}
	f.Clock.Advance(tstep)
	if got := answer(t, setPort); got != "starting up" {
		t.Errorf("set just active: %s", got)
	}
	f.Clock.Advance(5 * time.Second)
	if got := answer(t, setPort); got != "up" {
		t.Errorf("set active 5 s: %s", got)
	}
	f.Send("POST", sets+"/"+setID+"/enablePooler", nil).Must(t, 200)
	list := f.Send("GET", sets, nil).Must(t, 200).List(t)
	setPooler := livePort(t, apitest.Sub(t, apitest.Sub(t, list[0].(map[string]any), "connection_pooler"), "endpoint"))
	if got := answer(t, setPooler); got != "up" {
		t.Errorf("set pooler: %s", got)
	}
	if err := f.model.SetReplicaSetStatus(id, setID, "error"); err != nil {
		t.Fatal(err)
	}
	if got := answer(t, setPort); got != "reset" {
		t.Errorf("set in error: %s", got)
	}

	// Deleting the service takes its sets, and every endpoint, with it.
	f.Send("DELETE", f.SvcPath(id), nil).Must(t, 202)
	f.Clock.Advance(tstep)
	f.Send("GET", f.SvcPath(id), nil).Must(t, 404)
	for _, p := range []int{direct, pooler, setPort, setPooler} {
		if got := answer(t, p); got != "refused" {
			t.Errorf("port %d after the service is gone: %s", p, got)
		}
	}
}

// close ends every listener and connection, also one whose client says
// nothing, and later requests that need an endpoint fail instead of
// leaking one.
func TestLiveCloseEndsEverything(t *testing.T) {
	f := liveFake(t, Config{})
	id := f.Ready(nil)
	port := livePort(t, apitest.Sub(t, f.Get(id), "endpoint"))
	silent, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	if _, err := silent.Write([]byte{0, 0}); err != nil { // half a length, then nothing
		t.Fatal(err)
	}

	done := make(chan struct{})
	go func() { f.model.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return while a client was silent")
	}
	_ = silent.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := silent.Read(make([]byte, 1)); err == nil {
		t.Error("the silent connection is still open")
	}
	if got := answer(t, port); got != "refused" {
		t.Errorf("after Close: %s", got)
	}
	f.Send("POST", f.ServicesPath(), map[string]any{"name": "late"}).MustError(t, 503, "UNAVAILABLE", "endpoint")
	f.model.Close() // again: nothing to do
}

// Malformed packets and unknown requests end the connection without an
// answer; the listener goes on serving.
func TestLiveEndpointRejectsMalformedPackets(t *testing.T) {
	f := liveFake(t, Config{})
	port := livePort(t, apitest.Sub(t, f.Get(f.Ready(nil)), "endpoint"))
	for name, packet := range map[string][]byte{
		"length too small":    {0, 0, 0, 4, 0, 0, 0, 0},
		"length too large":    {0, 1, 0, 0, 0, 3, 0, 0},
		"cancel request":      startupPacket(80877102, "12345678"),
		"protocol 2":          startupPacket(2 << 16),
		"three SSL requests":  append(append(startupPacket(sslRequestCode), startupPacket(gssEncRequestCode)...), startupPacket(sslRequestCode)...),
		"length past the end": {0, 0, 0, 100, 0, 3, 0, 0},
	} {
		t.Run(name, func(t *testing.T) {
			conn, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
			if _, err := conn.Write(packet); err != nil {
				t.Fatal(err)
			}
			if name == "length past the end" {
				_ = conn.(*net.TCPConn).CloseWrite() // the server must see the end rather than wait
			}
			got, err := io.ReadAll(conn)
			if err != nil && !errors.Is(err, syscall.ECONNRESET) {
				t.Fatal(err)
			}
			if strings.Trim(string(got), "N") != "" {
				t.Errorf("answered %q, want nothing but N to TLS requests", got)
			}
		})
	}
	if got := answer(t, port); got != "up" {
		t.Errorf("after the malformed packets: %s", got)
	}
}

// Without LiveEndpoints nothing listens: endpoints keep their fake hosts.
func TestEndpointsAreNotLiveByDefault(t *testing.T) {
	f := newFake(t, Config{})
	ep := apitest.Sub(t, f.Get(f.Ready(nil)), "endpoint")
	if host, _ := ep["host"].(string); !strings.HasSuffix(host, ".fake.dbcloud.test") || apitest.Num(t, ep, "port") != 5432 {
		t.Errorf("endpoint %v", ep)
	}
	f.model.Close() // nothing to close
}
