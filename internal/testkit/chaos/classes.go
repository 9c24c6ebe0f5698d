package chaos

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// The classes of a failed workflow. Each is decided from the proxy's records
// of the failing call's requests (tagged with the call's number: what the
// proxy did to each, when, for how long, whether it reached the server) and
// the error the caller got, in the order classifyFailure lists them.
// Avoidable ones are failures a client that budgets its attempts in the
// call's deadline would not have had; the others it could not have avoided.
const (
	// A create whose every request was refused or held before the server
	// (a 5xx or reset from the proxy, held until the caller left): it may
	// not be sent again before the settle period, longer than what the
	// deadline leaves.
	classCreateNotSent = "not avoidable: create refused or held before the server"
	// A create that reached the server late (a 5xx answered at once, the
	// request forwarded later) or whose forward the caller abandoned: no
	// list can show it before the settle period.
	classCreateLate = "not avoidable: create reached the server late or uncertainly"
	// Without create recovery, a create that reached the server and lost
	// its answer returns ErrMaybeCreated, by contract.
	classCreateLost = "not avoidable: create's answer lost, no recovery"
	// A safe request (not a create's POST) held by the proxy for longer
	// than its call had left when it was sent: the call could only have
	// succeeded by abandoning that attempt and retrying.
	classStalled = "avoidable: a safe request's attempt stalled past the deadline"
	// The same inside a create call, for recovery's own list or
	// UpdatePassword after its create reached the server (or for the list
	// before the create).
	classRecoveryStalled = "avoidable: recovery's own request stalled past the deadline"
	// The call returned a fault's error (not its deadline) while its
	// deadline still had room for the longest wait a fault asks for
	// (Retry-After) and another attempt: retries counted, not budgeted in
	// time.
	classExhaustedEarly = "avoidable: retries exhausted with time left"
	// The deadline ran out while attempts kept failing, none held past it.
	classNoRoom = "not avoidable: every attempt faulted until the deadline"
	// Retries ran out with less than the room left.
	classExhaustedLate = "not avoidable: retries exhausted with no room left"
	// Anything else: read its error in the report.
	classOther = "unclassified"
)

// classOrder is the order of the report's rows.
var classOrder = []string{
	classStalled, classRecoveryStalled, classExhaustedEarly,
	classCreateNotSent, classCreateLate, classCreateLost, classNoRoom, classExhaustedLate, classOther,
}

// avoidable reports whether class is one the client could have avoided.
func avoidable(class string) bool {
	return class == classStalled || class == classRecoveryStalled || class == classExhaustedEarly
}

// classifyFailure decides the class of a workflow's failing call, made at
// c, whose requests the proxy recorded as attempts, under cfg. room is the
// time left that a retry needs: the longest wait a fault asks for.
func classifyFailure(op string, c called, attempts []Attempt, cfg Config) string {
	room := cfg.RetryAfter
	err := c.err
	deadline := errors.Is(err, context.DeadlineExceeded)
	// A stalled attempt: held for longer than its call had left, and
	// abandoned by the client while held, in a call that ended with its
	// deadline.
	stalled := func(a Attempt) bool {
		return deadline && !a.IsCreate() && a.Kind == Spike && a.Abandoned && a.Start.Add(a.Delay).After(c.deadline)
	}
	isCreate := op == opCreateService || op == opCreateReplicaSet

	if isCreate && errors.Is(err, dbcloud.ErrMaybeCreated) {
		var reached bool
		var firstReached time.Time
		late := false
		for _, a := range attempts {
			if !a.IsCreate() {
				continue
			}
			switch a.Reach {
			case ReachYes:
				if !reached {
					reached, firstReached = true, a.Start
				}
			case ReachLate, ReachMaybe:
				late = true
			}
		}
		switch {
		case !reached && late:
			return classCreateLate
		case !reached:
			return classCreateNotSent
		case !cfg.Recovery:
			return classCreateLost
		}
		for _, a := range attempts {
			if stalled(a) && a.Start.After(firstReached) {
				return classRecoveryStalled
			}
		}
		if !deadline && c.deadline.Sub(c.end) >= room {
			return classExhaustedEarly
		}
		return classNoRoom
	}

	for _, a := range attempts {
		if stalled(a) {
			if isCreate {
				return classRecoveryStalled
			}
			return classStalled
		}
	}
	// The errors a fault gives: the proxy's 5xx and 429, a reset or cut-off,
	// a malformed body. A 4xx other than 429 is the server's own answer.
	var apiErr *dbcloud.APIError
	faultErr := errors.As(err, &apiErr) && (apiErr.StatusCode >= 500 || apiErr.StatusCode == http.StatusTooManyRequests) ||
		classify(err) == outcomeNetwork || classify(err) == outcomeResponseError
	switch {
	case deadline && len(attempts) > 0:
		return classNoRoom
	case !deadline && faultErr && c.deadline.Sub(c.end) >= room:
		return classExhaustedEarly
	case !deadline && faultErr:
		return classExhaustedLate
	}
	return classOther
}

// evidence summarizes a call's attempts for the report: the faulted ones in
// order, with when they started (from the call's start), how long a spike
// was to hold, whether the client left while held, and whether they reached
// the server; the clean ones only counted.
func evidence(c called, attempts []Attempt) string {
	var b strings.Builder
	clean := 0
	for _, a := range attempts {
		if a.Kind == None && a.Reach == ReachYes {
			clean++
			continue
		}
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "+%s %s %s: %s", a.Start.Sub(c.start).Round(10*time.Millisecond), a.Method, lastSegment(a.Path), a.Kind)
		if a.Kind == Spike {
			fmt.Fprintf(&b, " %s", a.Delay.Round(10*time.Millisecond))
		}
		if a.Abandoned {
			b.WriteString(", abandoned")
		}
		fmt.Fprintf(&b, ", %s", reachNames[a.Reach])
	}
	if b.Len() > 0 {
		b.WriteString("; ")
	}
	fmt.Fprintf(&b, "%d clean", clean)
	return b.String()
}

var reachNames = [...]string{ReachNo: "not sent on", ReachYes: "reached", ReachLate: "reached late", ReachMaybe: "may have reached"}

func lastSegment(path string) string { return path[strings.LastIndex(path, "/")+1:] }
