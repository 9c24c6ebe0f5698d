package dbcloud

import (
	"errors"
	"net"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/testkit/pgwire"
)

var quickProbe = probeConfig{timeout: 2 * time.Second}

// answers checks every endpoint exists before probing any, and probes the
// pooler only when asked.
func TestAnswersProbesThePoolerWhenAsked(t *testing.T) {
	t.Parallel()
	checkGoroutines(t)
	host, port, _ := pgwire.Server(t, nil, pgwire.Msg('R', pgwire.AuthSASL))
	up := Endpoint{Host: host, Port: port}
	down := Endpoint{Host: "127.0.0.1", Port: pgwire.ClosedPort(t)}
	ctx := t.Context()
	withPooler := probeConfig{timeout: time.Second, pooler: true}

	if err := quickProbe.answers(ctx, "service", &up, &ConnectionPooler{Endpoint: &down}); err != nil {
		t.Errorf("without WithPoolerCheck the pooler was probed: %v", err)
	}
	if err := withPooler.answers(ctx, "service", &up, &ConnectionPooler{Endpoint: &up}); err != nil {
		t.Errorf("both up: %v", err)
	}
	err := withPooler.answers(ctx, "service", &up, &ConnectionPooler{Endpoint: &down})
	if !errors.Is(err, syscall.ECONNREFUSED) || !strings.Contains(err.Error(), net.JoinHostPort(down.Host, strconv.Itoa(down.Port))) {
		t.Errorf("pooler down: %v, want its refusal", err)
	}
	for name, c := range map[string]struct {
		direct *Endpoint
		pooler *ConnectionPooler
		want   string
	}{
		"no endpoint":          {nil, nil, "the service has no endpoint"},
		"empty host":           {&Endpoint{Port: 5432}, nil, "no endpoint"},
		"port 0":               {&Endpoint{Host: "h"}, nil, "no endpoint"},
		"no pooler":            {&down, nil, "no connection pooler endpoint"},
		"a pooler without one": {&down, &ConnectionPooler{}, "no connection pooler endpoint"},
	} {
		err := withPooler.answers(ctx, "service", c.direct, c.pooler)
		if !errors.Is(err, ErrNoEndpoint) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrNoEndpoint naming %q", name, err, c.want)
		}
	}
}
