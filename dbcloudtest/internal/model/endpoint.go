package model

import (
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/live"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/wire"
)

// The ports the live service gives a database and its pooler.
const (
	portDirect = 5432
	portPooler = 6432
)

// address is where an endpoint is reached: its loopback port when live,
// else the fake host and the port the live service would give.
func address(ep *live.Endpoint, host string, port int) wire.Endpoint {
	if ep == nil {
		return wire.Endpoint{Host: host, Port: port}
	}
	return wire.Endpoint{Host: live.Host, Port: ep.Port()}
}

// answerFor is how an endpoint of a resource with this schedule answers
// now: refused unless the current status is up, "starting up" for delay
// after that status began, then up.
func answerFor(sched schedule, now time.Time, up string, delay time.Duration) live.Answer {
	cur := sched.currentStep(now)
	switch {
	case cur.status != up:
		return live.Refuse
	case now.Before(cur.at.Add(delay)):
		return live.StartingUp
	}
	return live.Up
}
