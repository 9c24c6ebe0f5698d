package chaos

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

func TestDuplicates(t *testing.T) {
	got := duplicates([]Created{
		{Kind: KindService, ID: "s1", Name: "a"},
		{Kind: KindReplicaSet, ID: "r1", Name: "a"}, // another kind: not a duplicate
		{Kind: KindService, ID: "s2", Name: "b"},
		{Kind: KindService, ID: "s3", Name: "a"},
	})
	want := Check{Name: checkDuplicates, Count: 1, Detail: "service a: s1, s3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLeftovers(t *testing.T) {
	final := []dbcloud.Service{
		{ServiceID: "s1", Name: "unknown", Status: "READY"},
		{ServiceID: "s2", Name: "known", Status: "READY"},
		{ServiceID: "s3", Name: "going", Status: "DELETING", ReadReplicaSets: []dbcloud.ReadReplicaSet{
			{ID: "r1", Name: "known-set", Status: "deleting"},
			{ID: "r2", Name: "unknown-set", Status: "deleting"},
		}},
	}
	known := map[string]bool{"s2": true, "s3": true, "r1": true}
	unknown, knownLive, deleting := leftovers(final, known)
	want := []Check{
		{Name: checkUnknown, Count: 2, Detail: `service s1 "unknown" (READY); replica set r2 "unknown-set" (deleting)`},
		{Name: checkKnownLive, Count: 1, Detail: `service s2 "known" (READY)`},
		{Name: noteDeleting, Count: 2},
	}
	if diff := cmp.Diff(want, []Check{unknown, knownLive, deleting}); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestNeverLearned(t *testing.T) {
	got := neverLearned([]Created{{Kind: KindService, ID: "s1", Name: "a"}, {Kind: KindReplicaSet, ID: "r1", Name: "b"}},
		map[string]bool{"s1": true})
	want := Check{Name: noteNeverLearned, Count: 1, Detail: `replica set r1 "b"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSecretsCheck(t *testing.T) {
	// An empty password (none returned) must not match every text.
	secrets := secretSet([]string{"key-0123456789", ""}, []string{"pw-abcdefghij", "pw-abcdefghij"})
	if len(secrets) != 2 {
		t.Fatalf("secretSet = %d secrets, want 2", len(secrets))
	}
	errTexts := []string{"dbcloud: 500", "echoed key-0123456789 and pw-abcdefghij"}
	records := []string{"DEBUG attempt", "DEBUG password=pw-abcdefghij", "DEBUG x"}
	got := secretsCheck(secrets, errTexts, records)
	want := Check{Name: checkSecrets, Count: 2, Detail: "1 error texts, 1 log records; first: echoed [SECRET] and [SECRET]"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := secretsCheck(secrets, []string{"clean"}, []string{"clean"}); got.Count != 0 {
		t.Errorf("clean texts: %+v", got)
	}
}

// TestLogStore: a record is one line, even when a value spans lines, and a
// secret in an attribute added by With, in a group or behind a LogValuer is
// there as it is.
func TestLogStore(t *testing.T) {
	store := &logStore{}
	log := slog.New(store.handler()).With("key", "fake-key-0123456789").WithGroup("g")
	log.Debug("first", "err", errors.New("line one\nline two: pw-abcdefghij"))
	log.Info("second", slog.Group("h", "p", lazy("pw-klmnopqrst")), "secret", dbcloud.Secret("pw-hidden"))
	records := store.snapshot()
	if len(records) != 2 {
		t.Fatalf("%d records, want 2: %q", len(records), records)
	}
	secrets := []string{"fake-key-0123456789", "pw-abcdefghij", "pw-klmnopqrst", "pw-hidden"}
	for i, want := range [][]string{secrets[:2], {secrets[0], secrets[2]}} {
		for _, s := range secrets {
			if got := strings.Contains(records[i], s); got != slices.Contains(want, s) {
				t.Errorf("record %q holds %s: %t, want %t", records[i], s, got, !got)
			}
		}
	}
}

type lazy string

func (l lazy) LogValue() slog.Value { return slog.StringValue(string(l)) }

func TestClassify(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{nil, outcomeOK},
		{fmt.Errorf("x: %w", dbcloud.ErrMaybeCreated), outcomeMaybeCreated},
		{&dbcloud.WaitError{Err: fmt.Errorf("%w (last poll: %w)", context.DeadlineExceeded, &dbcloud.APIError{StatusCode: 503})}, outcomeDeadline},
		{fmt.Errorf("x: %w", context.Canceled), outcomeCanceled},
		{&dbcloud.WaitError{Err: &dbcloud.APIError{StatusCode: 409}}, "APIError 409"},
		{&dbcloud.ResponseError{StatusCode: 202, Err: io.ErrUnexpectedEOF}, outcomeResponseError},
		{&dbcloud.WaitError{Err: dbcloud.ErrUnexpectedStatus}, outcomeUnexpected},
		{&dbcloud.WaitError{Err: fmt.Errorf("%w: gone", dbcloud.ErrNotFound)}, outcomeNotFound},
		{fmt.Errorf("x: %w", &net.OpError{Op: "read", Err: errors.New("reset")}), outcomeNetwork},
		{fmt.Errorf("x: %w", io.ErrUnexpectedEOF), outcomeNetwork},
		{errNoLogs, "other (*errors.errorString)"},
	}
	for _, c := range cases {
		if got := classify(c.err); got != c.want {
			t.Errorf("classify(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

// TestCallsPastTheirDeadline: a call that returns well after its deadline
// is caught; one that returns with its deadline is not. On a synctest
// bubble's clock: the late call's 400 ms pass at once, and the call that
// keeps its deadline returns exactly at it, however loaded the machine.
func TestCallsPastTheirDeadline(t *testing.T) {
	synctest.Test(t, callsPastTheirDeadline)
}

func callsPastTheirDeadline(t *testing.T) {
	c := newCalls(20*time.Millisecond, 150*time.Millisecond)
	ignoresDeadline := func(context.Context) error {
		<-time.After(400 * time.Millisecond) // a call that does not watch its context
		return errors.New("late")
	}
	keepsDeadline := func(ctx context.Context) error {
		<-ctx.Done()
		return ctx.Err()
	}
	_ = c.do(t.Context(), 1, opResize, ignoresDeadline)
	_ = c.do(t.Context(), 2, opResize, keepsDeadline)
	if len(c.late) != 1 || c.late[0].Workflow != 1 || c.late[0].Err != "late" {
		t.Errorf("late = %+v, want workflow 1 only", c.late)
	}
	if want := map[string]int{"other (*errors.errorString)": 1, outcomeDeadline: 1}; !cmp.Equal(want, c.outcomes[opResize]) {
		t.Errorf("outcomes = %v, want %v", c.outcomes[opResize], want)
	}
	if len(c.stillRunning()) != 0 {
		t.Errorf("running = %v after both returned", c.stillRunning())
	}
	if !strings.Contains(strings.Join(c.errTexts, "\n"), "late") {
		t.Errorf("error texts %q miss the error", c.errTexts)
	}
}

// TestWorkersHardBound: past the hard bound the soak names the calls still
// running and stops them; a call that even the teardown cannot stop ends
// the soak anyway, reported.
func TestWorkersHardBound(t *testing.T) {
	for _, stoppable := range []bool{true, false} {
		// On a synctest bubble's clock: the hard bound and the patience
		// after each step pass at once.
		t.Run(fmt.Sprintf("stoppable=%t", stoppable), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				dbcloudtest.CheckGoroutines(t)
				root, cancel := context.WithCancel(t.Context())
				defer cancel()
				s := &soak{cfg: Config{Workers: 2}, root: root, calls: newCalls(time.Hour, 0)}
				release := make(chan struct{})
				defer func() {
					if !stoppable {
						close(release)
					}
				}()
				teardown := func() {
					if stoppable {
						close(release)
					}
				}
				started := make(chan struct{}, 2)
				run := func(n int) {
					_ = s.calls.do(root, n, opResize, func(context.Context) error {
						started <- struct{}{}
						<-release // a call that ignores its context
						return nil
					})
				}
				now := time.Now()
				running, ended := s.workers(run, now.Add(time.Hour), now.Add(500*time.Millisecond), 20*time.Millisecond, cancel, teardown)
				if ended != stoppable {
					t.Errorf("ended = %t, want %t", ended, stoppable)
				}
				if len(running) != 2 || running[0].Op != opResize || running[0].Workflow != 1 || running[1].Workflow != 2 {
					t.Errorf("running = %+v, want the 2 calls, by workflow", running)
				}
				if len(started) != 2 {
					t.Errorf("%d workflows started, want one per worker", len(started))
				}
			})
		})
	}
}
