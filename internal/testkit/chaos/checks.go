package chaos

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// Check is one end check: it passes when Count is 0. Detail says what was
// found, never a secret.
type Check struct {
	Name   string
	Count  int
	Detail string
}

// The names of the checks and notes, as the report prints them.
const (
	checkDrained    = "requests the proxy still held before the checks"
	checkRecorded   = "server answers the recorder could not record"
	checkDuplicates = "names created more than once"
	checkUnknown    = "resources left that no workflow learned about"
	checkKnownLive  = "learned resources left, not being deleted"
	checkLate       = "calls past their deadline"
	checkRunning    = "calls still running at the hard bound"
	checkGoroutines = "goroutines leaked"
	checkSecrets    = "secrets in error texts and log records"

	noteDeleting     = "resources being deleted at the end (delete accepted)"
	noteNeverLearned = "resources created that no workflow learned about (gone since)"
)

// ending is what Run gathered once the workflows ended, for the end checks.
type ending struct {
	final    []dbcloud.Service // what the server holds
	drainErr error             // why the proxy did not drain
	given    []string          // passwords sent with updatePassword, as the proxy saw them
	records  []string          // the client's log records
	leaked   int               // goroutines left behind, by every soak run with this one
	ended    bool              // whether every workflow returned
	// counted is whether the goroutines were counted: only once every
	// soak run together has ended. together is how many soaks ran.
	counted  bool
	together int
	// attempts returns the proxy's records of a call's requests.
	attempts func(call int64) []Attempt
}

// fill completes the report with what the workflows recorded and the end
// checks. Every password the SDK returns is among the secrets: the server
// issued it in a create or fork answer, which the backend records, or
// recovery set it with updatePassword, which the proxy records.
func (s *soak) fill(rep *Report, b *Backend, end ending) {
	led := s.ledger
	led.mu.Lock()
	rep.Completed = led.completed
	rep.Failures = sortedFailures(led.failures)
	rep.CleanupFailures = sortedFailures(led.cleanupFailures)
	known := maps.Clone(led.known)
	led.mu.Unlock()
	for i, f := range rep.Failures {
		attempts := end.attempts(f.call.id)
		rep.Failures[i].Class = classifyFailure(f.Op, f.call, attempts, s.cfg)
		rep.Failures[i].Evidence = evidence(f.call, attempts)
	}
	secrets := secretSet([]string{b.APIKey}, b.Passwords(), end.given)
	rep.Run = rep.Completed + len(rep.Failures)

	c := s.calls
	c.mu.Lock()
	rep.Calls = map[string]map[string]int{}
	for op, m := range c.outcomes {
		rep.Calls[op] = maps.Clone(m)
	}
	rep.Late = slices.Clone(c.late)
	errTexts := slices.Clone(c.errTexts)
	c.mu.Unlock()
	rep.LogRecords = len(end.records)

	drained := Check{Name: checkDrained}
	switch {
	case !end.ended:
		drained.Count, drained.Detail = 1, "not drained: the workflows did not end"
	case end.drainErr != nil:
		drained.Count, drained.Detail = 1, end.drainErr.Error()
	}
	created := b.Created()
	unknown, knownLive, deleting := leftovers(end.final, known)
	goroutines := Check{Name: checkGoroutines, Count: end.leaked}
	switch {
	case !end.ended:
		goroutines.Count, goroutines.Detail = 1, "workflows did not end after their calls were cancelled and the servers closed: not counted"
	case !end.counted:
		goroutines.Count, goroutines.Detail = 1, "the workflows of a soak run at the same time did not end: not counted"
	case end.together > 1 && end.leaked > 0:
		goroutines.Detail = fmt.Sprintf("counted over the %d soaks run at the same time", end.together)
	}
	rep.Secrets = len(secrets)
	rep.Checks = []Check{
		drained,
		recorded(b.RecordErrors()),
		duplicates(created),
		unknown,
		knownLive,
		callsCheck(checkLate, rep.Late),
		callsCheck(checkRunning, rep.Running),
		goroutines,
		secretsCheck(secrets, errTexts, end.records),
	}
	rep.Notes = []Check{deleting, neverLearned(created, known)}
}

func sortedFailures(fs []Failure) []Failure {
	out := slices.Clone(fs)
	slices.SortFunc(out, func(a, b Failure) int { return cmp.Compare(a.Workflow, b.Workflow) })
	return out
}

// recorded counts what the recorder could not record: a create it missed
// would escape the duplicates check.
func recorded(errs []error) Check {
	ch := Check{Name: checkRecorded, Count: len(errs)}
	var details []string
	for _, err := range errs {
		details = append(details, err.Error())
	}
	ch.Detail = strings.Join(details, "; ")
	return ch
}

// duplicates counts the names the server created more than one resource
// for. Every workflow uses its own names, so a second create of a name is
// a create the SDK repeated.
func duplicates(created []Created) Check {
	ids := map[[2]string][]string{}
	for _, c := range created {
		k := [2]string{c.Kind, c.Name}
		ids[k] = append(ids[k], c.ID)
	}
	ch := Check{Name: checkDuplicates}
	var details []string
	for _, k := range slices.SortedFunc(maps.Keys(ids), func(a, b [2]string) int {
		return cmp.Or(cmp.Compare(a[1], b[1]), cmp.Compare(a[0], b[0]))
	}) {
		if len(ids[k]) > 1 {
			ch.Count++
			details = append(details, fmt.Sprintf("%s %s: %s", k[0], k[1], strings.Join(ids[k], ", ")))
		}
	}
	ch.Detail = strings.Join(details, "; ")
	return ch
}

// leftovers sorts what the server still holds: resources no workflow
// learned about (a failure, whatever their status), learned ones not being
// deleted (a cleanup that failed), and learned ones being deleted. A
// deletion the server accepted completes without the client, one fake
// Step later, so those count as cleaned up.
func leftovers(final []dbcloud.Service, known map[string]bool) (unknown, knownLive, deleting Check) {
	unknown = Check{Name: checkUnknown}
	knownLive = Check{Name: checkKnownLive}
	deleting = Check{Name: noteDeleting}
	var u, k []string
	sort := func(kind, id, name, status string, beingDeleted bool) {
		desc := fmt.Sprintf("%s %s %q (%s)", kind, id, name, status)
		switch {
		case !known[id]:
			unknown.Count++
			u = append(u, desc)
		case beingDeleted:
			deleting.Count++
		default:
			knownLive.Count++
			k = append(k, desc)
		}
	}
	for _, svc := range final {
		sort(KindService, svc.ServiceID, svc.Name, string(svc.Status), svc.Status == dbcloud.StatusDeleting || svc.Status == dbcloud.StatusDeleted)
		for _, set := range svc.ReadReplicaSets {
			sort(KindReplicaSet, set.ID, set.Name, string(set.Status), set.Status == dbcloud.ReplicaSetDeleting)
		}
	}
	unknown.Detail = strings.Join(u, "; ")
	knownLive.Detail = strings.Join(k, "; ")
	return unknown, knownLive, deleting
}

// neverLearned counts what the server created and no workflow learned of:
// a create whose answer was lost and never recovered. What is still there
// is also an unknown leftover; this note counts what went with its service.
func neverLearned(created []Created, known map[string]bool) Check {
	ch := Check{Name: noteNeverLearned}
	var details []string
	for _, c := range created {
		if !known[c.ID] {
			ch.Count++
			details = append(details, fmt.Sprintf("%s %s %q", c.Kind, c.ID, c.Name))
		}
	}
	ch.Detail = strings.Join(details, "; ")
	return ch
}

func callsCheck(name string, calls []Call) Check {
	ch := Check{Name: name, Count: len(calls)}
	var details []string
	for _, c := range calls {
		d := fmt.Sprintf("workflow %d %s after %s", c.Workflow, c.Op, c.Took.Round(time.Millisecond))
		if c.Err != "" {
			d += ": " + c.Err
		}
		details = append(details, d)
	}
	ch.Detail = strings.Join(details, "; ")
	return ch
}

// secretsCheck counts the error texts and log records that hold any of the
// secrets. Its detail shows the first such text with the secret masked.
func secretsCheck(secrets, errTexts, records []string) Check {
	ch := Check{Name: checkSecrets}
	inErrs, first := findSecrets(secrets, errTexts)
	inLogs, firstLog := findSecrets(secrets, records)
	ch.Count = inErrs + inLogs
	if ch.Count > 0 {
		ch.Detail = fmt.Sprintf("%d error texts, %d log records; first: %s", inErrs, inLogs, cmp.Or(first, firstLog))
	}
	return ch
}

// secretSet merges lists of secrets, each once (a password the client got
// was seen by the server too), without the empty string, which every text
// contains.
func secretSet(lists ...[]string) []string {
	out := slices.Concat(lists...)
	slices.Sort(out)
	return slices.DeleteFunc(slices.Compact(out), func(s string) bool { return s == "" })
}

// findSecrets returns how many texts contain a secret, and the first of
// them with every secret masked.
func findSecrets(secrets, texts []string) (n int, first string) {
	for _, t := range texts {
		if !slices.ContainsFunc(secrets, func(s string) bool { return strings.Contains(t, s) }) {
			continue
		}
		if n == 0 {
			for _, s := range secrets {
				t = strings.ReplaceAll(t, s, "[SECRET]")
			}
			first = t
		}
		n++
	}
	return n, first
}
