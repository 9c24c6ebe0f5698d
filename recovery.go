package dbcloud

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/pipeline"
)

// recovery is one create under WithCreateRecovery: it lists what exists,
// sends the create, and resolves its ambiguous failures by listing again
// (see "Under faults" in the package documentation).
type recovery[T any] struct {
	api  *caller
	kind kind[T]
	r    request          // the create: a copy, so that the common path's stays off the heap
	pr   pipeline.Request // as the pipeline sends it
	at   ref              // its parent, which is listed
	o    outcome          // the last send's, for the observer
}

// recoverCreate runs the create r, which the pipeline sends as pr, under
// WithCreateRecovery: the resource it answered with, or the one recovery
// found, is left in pr.Out (the operation's answer), which a service whose
// new password could not be set is left in too, with the
// *MaybeCreatedError naming it. It returns the last send's outcome, for
// the observer. Services and VPCs are listed in their project, replica
// sets in their service, peerings in their VPC: every kind that creates
// is one of these four.
func (api *caller) recoverCreate(ctx context.Context, r *request, pr pipeline.Request) (outcome, error) {
	switch r.kind {
	case KindService:
		return recoverAs[Service](ctx, api, services{}, r, pr, ref{projectID: r.at.projectID})
	case KindReplicaSet:
		return recoverAs[ReadReplicaSet](ctx, api, replicaSets{}, r, pr, ref{projectID: r.at.projectID, serviceID: r.at.serviceID})
	case KindVPC:
		return recoverAs[VPC](ctx, api, vpcs{}, r, pr, ref{projectID: r.at.projectID})
	case KindPeering:
		return recoverAs[Peering](ctx, api, peerings{}, r, pr, ref{projectID: r.at.projectID, vpcID: r.at.vpcID})
	}
	panic("dbcloud: a create of " + string(r.kind) + ", a kind create recovery does not know")
}

// recoverAs runs the create r of kind k, listed in at, leaving the
// resource in the one pr.Out holds.
func recoverAs[T any](ctx context.Context, api *caller, k kind[T], r *request, pr pipeline.Request, at ref) (outcome, error) {
	rc := &recovery[T]{api: api, kind: k, r: *r, pr: pr, at: at}
	err := rc.run(ctx, pr.Out.(holder[T]).held())
	return rc.o, err
}

// keyer is a kind whose resources recovery tells apart by several fields
// (a VPC by its name, range and region; a peering by its peer), written as
// one key.
type keyer[T any] interface{ key(v *T) string }

// holder is an answer that holds one resource (a service's, a replica
// set's, a VPC's, a peering's), where recovery leaves the one it found.
type holder[T any] interface{ held() *T }

// adopter is a kind whose resources recovery found by listing need
// completing (services: see services.adopt).
type adopter[T any] interface {
	adopt(ctx context.Context, api *caller, at ref, v *T, resolved *MaybeCreatedError) (*T, error)
}

// Create recovery's own bounds (stated for users under "Under faults" in
// the package documentation). WithRetryMax bounds the retries of each
// request recovery sends (each list, each create); these bound its rounds.
const (
	// createRecoverySends is how many times in all recovery sends a create
	// that it found was not created (nothing appeared within the settle
	// period after the failure), before it reports that nothing was made.
	createRecoverySends = 5
	// createRecoveryListRounds is how many times a list that recovery
	// needs is tried, each with its own retries, while it fails for a
	// transient reason: the list taken before the create is sent, when the
	// context has no deadline, and the lists after an ambiguous failure
	// once the settle period has passed.
	createRecoveryListRounds = 5
)

// Polling of the list while a create settles: the first delay is an eighth
// of the settle period (several looks within it, so a landed resource is
// found early), doubling up to maxSettlePoll.
const maxSettlePoll = time.Second

// run sends the create and resolves its ambiguous failures, leaving the
// resource in into. A resource found by listing (its answer was lost) is
// completed by the kind's adopt, if it has one, which is told the failure
// that recovery resolved.
func (rc *recovery[T]) run(ctx context.Context, into *T) error {
	v, resolved, err := rc.resolve(ctx)
	if a, ok := rc.kind.(adopter[T]); ok && resolved != nil {
		v, err = a.adopt(ctx, rc.api, rc.at, v, resolved)
	}
	if v != nil {
		*into = *v
	}
	return err
}

// resolve sends the create until it is resolved. When the resource was
// found by listing, it returns the ambiguous failure that recovery
// resolved too.
func (rc *recovery[T]) resolve(ctx context.Context) (*T, *MaybeCreatedError, error) {
	k, api := rc.kind, rc.api
	before, err := rc.listBefore(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("dbcloud: listing before the %s create, which was not sent: %w", k.resource(), err)
	}
	known := make(map[string]bool, len(before))
	for i := range before {
		known[k.id(&before[i])] = true
	}
	for sends := 1; ; sends++ {
		got, err := rc.send(ctx)
		maybe, ok := errors.AsType[*MaybeCreatedError](err)
		if !ok {
			return got, nil, err
		}
		// What recovery meets is its own field, not a cause of the error:
		// the list's dial error must not make errors.As say that the
		// create was never sent.
		found, listErr := rc.awaitCreated(ctx, known, before, time.Now())
		switch {
		case errors.Is(listErr, errSettleAfterDeadline):
			maybe.Recovery = fmt.Errorf("listed once: %w", listErr)
			return nil, nil, maybe
		case listErr != nil:
			maybe.Recovery = fmt.Errorf("could not tell: %w", listErr)
			return nil, nil, maybe
		case len(found) == 1:
			logInfo(ctx, api.logger, "dbcloud: create recovered: the resource exists",
				slog.String("resource", string(k.resource())), slog.Int("sends", sends), slog.String("id", k.id(found[0])))
			return found[0], maybe, nil
		case len(found) > 1:
			for _, f := range found {
				maybe.IDs = append(maybe.IDs, k.id(f))
			}
			return nil, nil, maybe
		}
		// Nothing landed within the settle period: the create did not
		// happen, and sending it again is safe.
		if sends >= createRecoverySends {
			return nil, nil, fmt.Errorf("dbcloud: the %s was not created (nothing appeared within %v after the failure): %w", k.resource(), api.settle, maybe.Err)
		}
		logInfo(ctx, api.logger, "dbcloud: create recovery: the resource was not created; sending again",
			slog.String("resource", string(k.resource())), slog.Int("sends", sends))
	}
}

// send sends the create once, its answer decoded into a new value.
func (rc *recovery[T]) send(ctx context.Context) (*T, error) {
	var v *T
	rc.pr.Out, v = rc.kind.answer()
	rc.o = rc.r.outcome(rc.api.pipe.Do(ctx, rc.pr), rc.api.pipe.Secrets())
	if rc.o.err != nil {
		return nil, rc.r.failure(&rc.o)
	}
	return v, nil
}

// listBefore takes the list a create is compared with. Nothing has been sent
// yet, so without a deadline a list that failed for a transient reason
// (network, 5xx, 429) after its own retries is tried again, in up to
// createRecoveryListRounds rounds a short pause apart: a failure here would
// fail a create that could not have made anything. With a deadline the
// list's own retries already run as long as the time allows (see "Retries"
// in the package documentation): another round would only sleep into the
// deadline and lose the last answer.
func (rc *recovery[T]) listBefore(ctx context.Context) ([]T, error) {
	_, timed := ctx.Deadline()
	for round := 0; ; round++ {
		items, err := rc.kind.list(ctx, rc.api, rc.at, nil)
		if err == nil || timed || round+1 >= createRecoveryListRounds || isTerminal(err) || ctx.Err() != nil {
			return items, err
		}
		if err := pipeline.Sleep(ctx, min(rc.api.pipe.Policy().WaitMax, maxSettlePoll)); err != nil {
			return nil, err
		}
	}
}

// awaitCreated lists until resources that are new (not known) and the
// create's (rc.r.want, given what existed before) appear, and returns them; or returns none once a list sent after the settle period
// (counted from failedAt) does not show any. It stops with an error when the
// context ends, on an answer that more lists cannot change (a 4xx other than
// 429), or when lists keep failing past the settle period.
func (rc *recovery[T]) awaitCreated(ctx context.Context, known map[string]bool, before []T, failedAt time.Time) ([]*T, error) {
	deadline := failedAt.Add(rc.api.settle)
	if end, ok := ctx.Deadline(); ok && end.Before(deadline) {
		return rc.listOnce(ctx, known, before)
	}
	delay := max(rc.api.settle/8, time.Millisecond)
	failures := 0
	for {
		listedAt := time.Now()
		items, err := rc.kind.list(ctx, rc.api, rc.at, nil)
		if err == nil {
			failures = 0
			found := rc.newOnes(items, known, before)
			if len(found) > 0 || !listedAt.Before(deadline) {
				return found, nil
			}
		} else if failures++; ctx.Err() != nil || isTerminal(err) || (failures >= createRecoveryListRounds && !listedAt.Before(deadline)) {
			return nil, err // each list was already retried: more would not help
		}
		wait := delay
		if err == nil {
			wait = min(wait, time.Until(deadline))
		}
		if err := pipeline.Sleep(ctx, wait); err != nil {
			return nil, err
		}
		delay = min(2*delay, maxSettlePoll)
	}
}

// errSettleAfterDeadline is why recovery gave up at once: the settle period
// would end after the caller's deadline, so a list without the resource
// could not prove the create lost.
var errSettleAfterDeadline = errors.New("the settle period ends after the deadline, and no new resource with the requested name is listed yet")

// listOnce is awaitCreated when the settle period cannot end before the
// deadline: one list, whose finds are returned as usual; none is
// errSettleAfterDeadline, since the create may still land.
func (rc *recovery[T]) listOnce(ctx context.Context, known map[string]bool, before []T) ([]*T, error) {
	items, err := rc.kind.list(ctx, rc.api, rc.at, nil)
	if err != nil {
		return nil, err
	}
	found := rc.newOnes(items, known, before)
	if len(found) == 0 {
		return nil, errSettleAfterDeadline
	}
	return found, nil
}

// newOnes returns the items that were not known before and are the
// create's.
func (rc *recovery[T]) newOnes(items []T, known map[string]bool, before []T) []*T {
	var found []*T
	for i := range items {
		if v := &items[i]; !known[rc.kind.id(v)] && rc.ours(v, before) {
			found = append(found, v)
		}
	}
	return found
}

// ours reports whether v, new since the create was sent, is the
// resource it asked for: the one with the name asked for, or the key asked
// for, for a keyer. A fork is named
// as asked or, by default, as the API names forks: its parent's name with
// "-fork", when the parent is in before; a service that says which parent
// it has must name this one.
func (rc *recovery[T]) ours(v *T, before []T) bool {
	k, name := rc.kind, rc.r.want.name
	if kk, ok := k.(keyer[T]); ok {
		return kk.key(v) == rc.r.want.key
	}
	if rc.r.want.forkOf == "" {
		return k.name(v) == name
	}
	if name == "" {
		for i := range before {
			if k.id(&before[i]) == rc.r.want.forkOf {
				name = k.name(&before[i]) + "-fork"
			}
		}
	}
	if svc, ok := any(v).(*Service); ok && svc.ForkedFrom != nil {
		return svc.ForkedFrom.ServiceID == rc.r.want.forkOf && (name == "" || svc.Name == name)
	}
	return name != "" && k.name(v) == name
}

// recoveredPasswordLen is the length of a password set by recovery: 32
// characters of 62 possible, about 190 bits.
const recoveredPasswordLen = 32

const passwordAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// newPassword draws a password from crypto/rand, without modulo bias: bytes
// of 248 and above (the largest multiple of 62 that fits) are drawn again.
func newPassword() (string, error) {
	out := make([]byte, 0, recoveredPasswordLen)
	buf := make([]byte, recoveredPasswordLen)
	for len(out) < recoveredPasswordLen {
		if _, err := rand.Read(buf); err != nil {
			return "", err
		}
		for _, b := range buf {
			if b < 248 && len(out) < recoveredPasswordLen {
				out = append(out, passwordAlphabet[int(b)%len(passwordAlphabet)])
			}
		}
	}
	return string(out), nil
}
