package chaos

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// The operations of a workflow, in its order, then those of its cleanup.
const (
	opCreateService         = "Services.Create"
	opWaitReady             = "Services.WaitForReady"
	opResize                = "Services.Resize"
	opWaitResized           = "Services.WaitForReady (resized)"
	opCreateReplicaSet      = "ReplicaSets.Create"
	opWaitActive            = "ReplicaSets.WaitForActive"
	opAllLogs               = "Services.AllLogs"
	opDeleteReplicaSet      = "ReplicaSets.Delete"
	opWaitReplicaSetDeleted = "ReplicaSets.WaitForDeleted"
	opDeleteService         = "Services.Delete"
	opWaitServiceDeleted    = "Services.WaitForDeleted"

	opCleanupListServices    = "cleanup: Services.List"
	opCleanupListReplicaSets = "cleanup: ReplicaSets.List"
	opCleanupDeleteSet       = "cleanup: ReplicaSets.Delete"
	opCleanupDeleteService   = "cleanup: Services.Delete"
	opCleanupWaitDeleted     = "cleanup: Services.WaitForDeleted"
)

// opOrder is the order of the report's rows.
var opOrder = []string{
	opCreateService, opWaitReady, opResize, opWaitResized, opCreateReplicaSet, opWaitActive,
	opAllLogs, opDeleteReplicaSet, opWaitReplicaSetDeleted, opDeleteService, opWaitServiceDeleted,
	opCleanupListServices, opCleanupListReplicaSets, opCleanupDeleteSet, opCleanupDeleteService, opCleanupWaitDeleted,
}

// Outcome classes of a call, besides "APIError <status>".
const (
	outcomeOK            = "ok"
	outcomeMaybeCreated  = "ErrMaybeCreated"
	outcomeDeadline      = "deadline"
	outcomeCanceled      = "canceled"
	outcomeResponseError = "ResponseError"
	outcomeUnexpected    = "unexpected status"
	outcomeNotFound      = "not found"
	outcomeNetwork       = "network"
)

// classify names the class of a call's error, most telling first: a create
// that may have happened, then a deadline (a wait that timed out during
// failing polls is a deadline, not its last poll's error), then the kind of
// answer.
func classify(err error) string {
	var apiErr *dbcloud.APIError
	var respErr *dbcloud.ResponseError
	var netErr net.Error
	switch {
	case err == nil:
		return outcomeOK
	case errors.Is(err, dbcloud.ErrMaybeCreated):
		return outcomeMaybeCreated
	case errors.Is(err, context.DeadlineExceeded):
		return outcomeDeadline
	case errors.Is(err, context.Canceled):
		return outcomeCanceled
	case errors.As(err, &apiErr):
		return "APIError " + strconv.Itoa(apiErr.StatusCode)
	case errors.As(err, &respErr):
		return outcomeResponseError
	case errors.Is(err, dbcloud.ErrUnexpectedStatus):
		return outcomeUnexpected
	case errors.Is(err, dbcloud.ErrNotFound):
		return outcomeNotFound
	case errors.As(err, &netErr), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return outcomeNetwork
	}
	return fmt.Sprintf("other (%T)", err)
}

// Call is one SDK call that returned past its deadline, or that was still
// running when the soak's hard bound came.
type Call struct {
	Workflow int
	Op       string
	Took     time.Duration // how long it ran (so far, for a running call)
	Err      string        // "" for a running call or a success
}

// calls times and classifies every SDK call of a soak, and knows which are
// running. Safe for concurrent use.
type calls struct {
	timeout, tolerance time.Duration

	mu       sync.Mutex
	outcomes map[string]map[string]int // op -> outcome -> count
	late     []Call
	// errTexts holds every error's text, for the secret check: Error() is
	// the whole text, as no error the SDK returns formats itself otherwise.
	errTexts []string
	running  map[int64]runningCall
	nextID   int64
}

type runningCall struct {
	workflow int
	op       string
	start    time.Time
}

func newCalls(timeout, tolerance time.Duration) *calls {
	return &calls{
		timeout: timeout, tolerance: tolerance,
		outcomes: map[string]map[string]int{},
		running:  map[int64]runningCall{},
	}
}

// do runs fn with its own deadline, derived from root, and records it.
func (c *calls) do(root context.Context, workflow int, op string, fn func(context.Context) error) error {
	_, err := c.run(root, workflow, op, fn)
	return err
}

// called is one finished call, for classifying a workflow's failure with
// what the proxy recorded of the call's requests (tagged with id).
type called struct {
	id                   int64
	start, deadline, end time.Time
	err                  error
}

// run is do, which also returns the call's record.
func (c *calls) run(root context.Context, workflow int, op string, fn func(context.Context) error) (called, error) {
	ctx, cancel := context.WithTimeout(root, c.timeout)
	defer cancel()
	start := time.Now()
	deadline, _ := ctx.Deadline()
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	c.running[id] = runningCall{workflow, op, start}
	c.mu.Unlock()

	err := fn(withCall(ctx, id))
	took := time.Since(start)
	rec := called{id: id, start: start, deadline: deadline, end: start.Add(took), err: err}

	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.running, id)
	byOutcome := c.outcomes[op]
	if byOutcome == nil {
		byOutcome = map[string]int{}
		c.outcomes[op] = byOutcome
	}
	byOutcome[classify(err)]++
	text := ""
	if err != nil {
		text = err.Error()
		c.errTexts = append(c.errTexts, text)
	}
	if took > c.timeout+c.tolerance {
		c.late = append(c.late, Call{Workflow: workflow, Op: op, Took: took, Err: text})
	}
	return rec, err
}

// stillRunning returns the calls running now, by workflow, longest running
// first within one.
func (c *calls) stillRunning() []Call {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Call
	for _, r := range c.running {
		out = append(out, Call{Workflow: r.workflow, Op: r.op, Took: time.Since(r.start)})
	}
	slices.SortFunc(out, func(a, b Call) int {
		return cmp.Or(cmp.Compare(a.Workflow, b.Workflow), cmp.Compare(b.Took, a.Took))
	})
	return out
}
