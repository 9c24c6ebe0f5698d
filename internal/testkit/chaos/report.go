package chaos

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// Report is what a soak did and found.
type Report struct {
	Config  Config
	Elapsed time.Duration

	Run, Completed  int
	Failures        []Failure // one per failed workflow: the call that failed and its error
	CleanupFailures []Failure // cleanup calls that never succeeded

	Proxy ProxyCounts
	Calls map[string]map[string]int // operation -> outcome -> count
	Late  []Call                    // calls that returned past their deadline
	// Running are the calls still running at the hard bound.
	Running []Call

	Checks     []Check // the safety checks: each must count 0
	Notes      []Check // counts worth knowing that fail nothing
	LogRecords int     // records the client logged, all searched for secrets
	Secrets    int     // secrets searched for: the API key and every password
	// Stacks are every goroutine's stacks when some were left behind.
	Stacks []byte
}

// Completion is the share of workflows run that completed.
func (r *Report) Completion() float64 {
	if r.Run == 0 {
		return 0
	}
	return float64(r.Completed) / float64(r.Run)
}

// StartedPerMinute is how many workflows were started per minute of
// cfg.Duration, the time in which workflows start: the soak's throughput.
func (r *Report) StartedPerMinute() float64 {
	return float64(r.Run) / r.Config.Duration.Minutes()
}

// Classes counts the failed workflows by class, and how many of them the
// client could have avoided.
func (r *Report) Classes() (byClass map[string]int, avoidableCount int) {
	byClass = map[string]int{}
	for _, f := range r.Failures {
		byClass[f.Class]++
		if avoidable(f.Class) {
			avoidableCount++
		}
	}
	return byClass, avoidableCount
}

// Broken returns the safety checks that found something.
func (r *Report) Broken() []Check {
	return slices.DeleteFunc(slices.Clone(r.Checks), func(c Check) bool { return c.Count == 0 })
}

// String renders the report as Markdown tables, ready to paste.
func (r *Report) String() string {
	var b strings.Builder
	c := r.Config
	settle := c.CreateSettle.String()
	held := ""
	if c.HeldShare > 0 {
		held = fmt.Sprintf(" (%g%% of them held %s to %s instead)", 100*c.HeldShare, c.HeldMin, c.HeldMax)
	}
	recovery := "with create recovery"
	if !c.Recovery {
		recovery = "without create recovery"
	}
	fmt.Fprintf(&b, "chaos soak: seed %d, fault rate %g%%, %d workers, %s (ran %s); call deadline %s, "+
		"retry waits %s to %s, Retry-After %s, spikes %s to %s%s, fake step %s, create settle %s, %s\n\n",
		c.Seed, 100*c.Rate, c.Workers, c.Duration, r.Elapsed.Round(100*time.Millisecond), c.CallTimeout,
		c.RetryWaitMin, c.RetryWaitMax, c.RetryAfter, c.SpikeMin, c.SpikeMax, held, c.Step, settle, recovery)

	b.WriteString("| workflows run | started per minute | completed | failed | completion |\n|---:|---:|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| %d | %.1f | %d | %d | %.1f%% |\n\n", r.Run, r.StartedPerMinute(), r.Completed, len(r.Failures), 100*r.Completion())

	byClass, avoidableCount := r.Classes()
	fmt.Fprintf(&b, "| failed workflows by class (%d of %d avoidable) | count |\n|---|---:|\n", avoidableCount, len(r.Failures))
	for _, cl := range classOrder {
		fmt.Fprintf(&b, "| %s | %d |\n", cl, byClass[cl])
	}
	b.WriteString("\n")

	faulted := r.Proxy.Requests - r.Proxy.Faults[None]
	fmt.Fprintf(&b, "| fault (%d requests, %d faulted) | count |\n|---|---:|\n", r.Proxy.Requests, faulted)
	for k := Kind(0); k < numKinds; k++ {
		fmt.Fprintf(&b, "| %s | %d |\n", k, r.Proxy.Faults[k])
	}
	fmt.Fprintf(&b, "| (inert: nothing to cut or replace) | %d |\n", r.Proxy.Inert)
	fmt.Fprintf(&b, "| (forwards that failed: the client had gone) | %d |\n\n", r.Proxy.UpstreamErrors)

	b.WriteString("| call | calls | ok | errors |\n|---|---:|---:|---|\n")
	for _, op := range r.ops() {
		outcomes := r.Calls[op]
		total := 0
		var errs []string
		for _, o := range slices.Sorted(maps.Keys(outcomes)) {
			total += outcomes[o]
			if o != outcomeOK {
				errs = append(errs, fmt.Sprintf("%s ×%d", o, outcomes[o]))
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %s |\n", op, total, outcomes[outcomeOK], strings.Join(errs, ", "))
	}

	b.WriteString("\n| check | found | |\n|---|---:|---|\n")
	for _, ch := range r.Checks {
		verdict := "ok"
		if ch.Count != 0 {
			verdict = "**FAILED** " + cell(ch.Detail)
		}
		fmt.Fprintf(&b, "| %s | %d | %s |\n", ch.Name, ch.Count, verdict)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "| %s | %d | note %s |\n", n.Name, n.Count, cell(n.Detail))
	}
	fmt.Fprintf(&b, "\n(%d secrets searched for in every error text and %d log records.)\n", r.Secrets, r.LogRecords)

	failures(&b, "failed workflows", r.Failures, true)
	failures(&b, "cleanup calls that never succeeded", r.CleanupFailures, false)
	return b.String()
}

// ops lists the operations called, in workflow order, then any other.
func (r *Report) ops() []string {
	var out []string
	for _, op := range opOrder {
		if _, ok := r.Calls[op]; ok {
			out = append(out, op)
		}
	}
	for _, op := range slices.Sorted(maps.Keys(r.Calls)) {
		if !slices.Contains(opOrder, op) {
			out = append(out, op)
		}
	}
	return out
}

func failures(b *strings.Builder, title string, fs []Failure, classes bool) {
	if len(fs) == 0 {
		return
	}
	if !classes {
		fmt.Fprintf(b, "\n| %s | call | error |\n|---:|---|---|\n", title)
		for _, f := range fs {
			fmt.Fprintf(b, "| %d | %s | %s |\n", f.Workflow, f.Op, cell(f.Err))
		}
		return
	}
	fmt.Fprintf(b, "\n| %s | call | class | the proxy's record of the call's requests | error |\n|---:|---|---|---|---|\n", title)
	for _, f := range fs {
		fmt.Fprintf(b, "| %d | %s | %s | %s | %s |\n", f.Workflow, f.Op, f.Class, cell(f.Evidence), cell(f.Err))
	}
}

// cell keeps text inside one Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
