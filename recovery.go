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

// creation is what recovery needs to know of one create call.
type creation[T any] struct {
	kind ResourceKind
	list func(context.Context) ([]T, error)
	id   func(*T) string
	// ours returns, given what existed before the create was sent, the test
	// that tells this create's resource from others.
	ours func(before []T) func(*T) bool
	send func(context.Context) (*T, error)
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

// recoverCreate sends a create and resolves its ambiguous failures. When
// the resource was found by listing (its answer was lost), it returns the
// ambiguous failure that recovery resolved too, for what finishing the
// resource may still meet (adoptService).
func recoverCreate[T any](ctx context.Context, api *caller, c creation[T]) (*T, *MaybeCreatedError, error) {
	before, err := listBefore(ctx, api, c.list)
	if err != nil {
		return nil, nil, fmt.Errorf("dbcloud: listing before the %s create, which was not sent: %w", c.kind, err)
	}
	known := make(map[string]bool, len(before))
	for i := range before {
		known[c.id(&before[i])] = true
	}
	ours := c.ours(before)
	for sends := 1; ; sends++ {
		got, err := c.send(ctx)
		maybe, ok := errors.AsType[*MaybeCreatedError](err)
		if !ok {
			return got, nil, err
		}
		// What recovery meets is its own field, not a cause of the error:
		// the list's dial error must not make errors.As say that the
		// create was never sent.
		found, listErr := awaitCreated(ctx, api, c, known, ours, time.Now())
		switch {
		case errors.Is(listErr, errSettleAfterDeadline):
			maybe.Recovery = fmt.Errorf("listed once: %w", listErr)
			return nil, nil, maybe
		case listErr != nil:
			maybe.Recovery = fmt.Errorf("could not tell: %w", listErr)
			return nil, nil, maybe
		case len(found) == 1:
			api.logInfo(ctx, "dbcloud: create recovered: the resource exists",
				slog.String("resource", string(c.kind)), slog.Int("sends", sends), slog.String("id", c.id(found[0])))
			return found[0], maybe, nil
		case len(found) > 1:
			for _, f := range found {
				maybe.IDs = append(maybe.IDs, c.id(f))
			}
			return nil, nil, maybe
		}
		// Nothing landed within the settle period: the create did not
		// happen, and sending it again is safe.
		if sends >= createRecoverySends {
			return nil, nil, fmt.Errorf("dbcloud: the %s was not created (nothing appeared within %v after the failure): %w", c.kind, api.settle, maybe.Err)
		}
		api.logInfo(ctx, "dbcloud: create recovery: the resource was not created; sending again",
			slog.String("resource", string(c.kind)), slog.Int("sends", sends))
	}
}

// listBefore takes the list a create is compared with. Nothing has been sent
// yet, so without a deadline a list that failed for a transient reason
// (network, 5xx, 429) after its own retries is tried again, in up to
// createRecoveryListRounds rounds a short pause apart: a failure here would
// fail a create that could not have made anything. With a deadline the
// list's own retries already run as long as the time allows (see "Retries"
// in the package documentation): another round would only sleep into the
// deadline and lose the last answer.
func listBefore[T any](ctx context.Context, api *caller, list func(context.Context) ([]T, error)) ([]T, error) {
	_, timed := ctx.Deadline()
	for round := 0; ; round++ {
		items, err := list(ctx)
		if err == nil || timed || round+1 >= createRecoveryListRounds || isTerminal(err) || ctx.Err() != nil {
			return items, err
		}
		if err := pipeline.Sleep(ctx, min(api.pipe.Policy().WaitMax, maxSettlePoll)); err != nil {
			return nil, err
		}
	}
}

// awaitCreated lists until resources that are ours and not known appear, and
// returns them; or returns none once a list sent after the settle period
// (counted from failedAt) does not show any. It stops with an error when the
// context ends, on an answer that more lists cannot change (a 4xx other than
// 429), or when lists keep failing past the settle period.
func awaitCreated[T any](ctx context.Context, api *caller, c creation[T], known map[string]bool, ours func(*T) bool, failedAt time.Time) ([]*T, error) {
	deadline := failedAt.Add(api.settle)
	if end, ok := ctx.Deadline(); ok && end.Before(deadline) {
		return listOnce(ctx, c, known, ours)
	}
	delay := max(api.settle/8, time.Millisecond)
	failures := 0
	for {
		listedAt := time.Now()
		items, err := c.list(ctx)
		if err == nil {
			failures = 0
			found := newOnes(items, c.id, known, ours)
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
func listOnce[T any](ctx context.Context, c creation[T], known map[string]bool, ours func(*T) bool) ([]*T, error) {
	items, err := c.list(ctx)
	if err != nil {
		return nil, err
	}
	found := newOnes(items, c.id, known, ours)
	if len(found) == 0 {
		return nil, errSettleAfterDeadline
	}
	return found, nil
}

// newOnes returns the items that are ours and were not known before.
func newOnes[T any](items []T, id func(*T) string, known map[string]bool, ours func(*T) bool) []*T {
	var found []*T
	for i := range items {
		if !known[id(&items[i])] && ours(&items[i]) {
			found = append(found, &items[i])
		}
	}
	return found
}

// adoptService is serviceKind's adopt: a service found by listing lost its
// initial password with the answer, so a new one is set and returned in
// InitialPassword, and the caller's path is the same as for a plain
// success. maybe is the ambiguous failure that recovery resolved: when the
// password cannot be set, it is returned, naming the service.
func adoptService(ctx context.Context, api *caller, at ref, svc *Service, maybe *MaybeCreatedError) (*Service, error) {
	password, err := newPassword()
	if err == nil {
		// Part of the user's create, which the read-only guard let through:
		// not asked again (see WithReadOnlyProd).
		r := passwordRequest(ref{projectID: at.projectID, serviceID: svc.ServiceID}, password)
		r.partOf = true
		err = api.run(ctx, r, nil)
	}
	if err != nil {
		// It exists for sure: the error must say it may, and name it.
		maybe.IDs = []string{svc.ServiceID}
		maybe.Recovery = fmt.Errorf("setting a new password (the initial one was lost with the answer): %w", err)
		return svc, maybe
	}
	svc.InitialPassword = Secret(password)
	return svc, nil
}

// forkOf tests for the fork of parentID named name, or, when name is "",
// named as the API names forks: the parent's name with "-fork". A service
// that says which parent it has must name this one.
func forkOf(parentID, name string, before []Service) func(*Service) bool {
	if name == "" {
		for _, svc := range before {
			if svc.ServiceID == parentID {
				name = svc.Name + "-fork"
			}
		}
	}
	return func(svc *Service) bool {
		if svc.ForkedFrom != nil {
			return svc.ForkedFrom.ServiceID == parentID && (name == "" || svc.Name == name)
		}
		return name != "" && svc.Name == name
	}
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
