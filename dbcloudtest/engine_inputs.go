package dbcloudtest

import (
	"fmt"
	"time"
)

// The body of each operation, read and checked by the rules of the package
// documentation.

type createInput struct {
	name, typ, region, env string
	cpu, mem, replicas     int
}

func parseCreate(c *call) (in createInput, err error) {
	b, err := parseBody(c)
	if err != nil {
		return in, err
	}
	if in.name, err = b.name(); err != nil {
		return in, err
	}
	addons, _, err := b.stringList("addons")
	if err != nil {
		return in, err
	}
	in.typ = typePostgres
	hasTS := false
	for _, ad := range addons {
		switch ad {
		case "time-series":
			hasTS = true
		case "ai":
			in.typ = typeVector
		default:
			return in, badRequest("addons", `each value must be "time-series" or "ai"`)
		}
	}
	if hasTS {
		in.typ = typeTimeSeries // the time-series type also carries the AI extensions
	}
	if in.cpu, in.mem, err = b.sizes(defaultCPUMillis, defaultMemoryGBs); err != nil {
		return in, err
	}
	if in.env, err = b.env("environment_tag"); err != nil {
		return in, err
	}
	region, ok, err := b.str("region_code")
	switch {
	case err != nil:
		return in, err
	case !ok:
		in.region = defaultRegion
	case region == "":
		return in, badRequest("region_code", "must not be empty")
	default:
		in.region = region
	}
	if in.replicas, _, err = b.integer("replica_count"); err != nil {
		return in, err
	}
	if in.replicas < 0 {
		return in, badRequest("replica_count", "must be at least 0")
	}
	return in, nil
}

type forkInput struct {
	name, env, strategy string
	cpu, mem            int
}

func parseFork(c *call, parent *service) (in forkInput, err error) {
	b, err := parseBody(c)
	if err != nil {
		return in, err
	}
	if in.strategy, err = b.required("fork_strategy"); err != nil {
		return in, err
	}
	switch in.strategy {
	case "LAST_SNAPSHOT", "NOW":
	case "PITR":
		if err := checkTargetTime(b, c.now, parent); err != nil {
			return in, err
		}
	default:
		return in, badRequest("fork_strategy", "must be LAST_SNAPSHOT, NOW or PITR")
	}
	name, ok, err := b.str("name")
	switch {
	case err != nil:
		return in, err
	case !ok:
		in.name = parent.name + "-fork"
	default:
		if err := checkName("name", name); err != nil {
			return in, err
		}
		in.name = name
	}
	if in.cpu, in.mem, err = b.sizes(parent.cpu, parent.mem); err != nil {
		return in, err
	}
	in.env, err = b.env("environment_tag")
	return in, err
}

// checkTargetTime needs a PITR target inside the parent's lifetime: nothing
// can be restored from before it existed or from the future.
//
// The lifetime is judged on two clocks, and a target inside it on either
// is taken. The server's clock (now, parent.created) stands still between
// Advance calls, or ticks ahead, or runs from a fixed start, so a target a
// user's code computes from time.Now would fall outside it for no reason
// the real API would have; the machine's clock (parent.createdOnMachine,
// time.Now) is the one such code reads. A test that derives its target
// from Server.Now keeps working as before.
func checkTargetTime(b jsonBody, now time.Time, parent *service) error {
	v, ok, err := b.str("target_time")
	switch {
	case err != nil:
		return err
	case !ok:
		return badRequest("target_time", "is required when fork_strategy is PITR")
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return badRequest("target_time", "must be an RFC 3339 timestamp")
	}
	onServer := checkLifetime(t, parent.created, now)
	if onServer == nil || checkLifetime(t, parent.createdOnMachine, time.Now()) == nil {
		return nil
	}
	return onServer
}

// checkLifetime says whether t lies between created and now, on one clock.
func checkLifetime(t, created, now time.Time) error {
	switch {
	case t.After(now):
		return badRequest("target_time", "must not be in the future")
	case t.Before(created):
		return badRequest("target_time", "must not be before the parent service was created")
	}
	return nil
}

// parseResize reads the body of both resize operations: sizes are required
// and digits only ("shared" is for create and fork).
func parseResize(c *call) (cpu, mem int, err error) {
	b, err := parseBody(c)
	if err != nil {
		return 0, 0, err
	}
	sizes := [2]int{}
	for i, f := range []string{"cpu_millis", "memory_gbs"} {
		v, err := b.required(f)
		if err != nil {
			return 0, 0, err
		}
		if sizes[i], err = digits(f, v); err != nil {
			return 0, 0, err
		}
	}
	return sizes[0], sizes[1], nil
}

// parseSetHA returns the counts the service will have: a field left out keeps
// its current value, and the result must stay consistent.
func parseSetHA(c *call, replicas, sync int) (int, int, error) {
	b, err := parseBody(c)
	if err != nil {
		return 0, 0, err
	}
	r, rOK, err := b.integer("replica_count")
	if err != nil {
		return 0, 0, err
	}
	s, sOK, err := b.integer("sync_replica_count")
	if err != nil {
		return 0, 0, err
	}
	switch {
	case !rOK && !sOK:
		return 0, 0, badRequest("replica_count", "at least one of replica_count and sync_replica_count is required")
	case r < 0:
		return 0, 0, badRequest("replica_count", "must be at least 0")
	case s < 0:
		return 0, 0, badRequest("sync_replica_count", "must be at least 0")
	}
	if rOK {
		replicas = r
	}
	if sOK {
		sync = s
	}
	if sync > replicas {
		return 0, 0, badRequest("sync_replica_count", fmt.Sprintf("must not exceed replica_count (%d)", replicas))
	}
	return replicas, sync, nil
}

// parseField reads the body of an operation whose one field is required and
// must pass check.
func parseField(c *call, field string, check func(field, v string) error) (string, error) {
	b, err := parseBody(c)
	if err != nil {
		return "", err
	}
	v, err := b.required(field)
	if err != nil {
		return "", err
	}
	if err := check(field, v); err != nil {
		return "", err
	}
	return v, nil
}

func parseVPC(c *call) (string, error) { return parseField(c, "vpc_id", checkDigits) }

func parsePassword(c *call) (string, error) {
	return parseField(c, "password", func(field, v string) error {
		if v == "" {
			return badRequest(field, "must not be empty")
		}
		return nil
	})
}

func parseEnvironment(c *call) (string, error) { return parseField(c, "environment", checkEnv) }

type replicaSetInput struct {
	name            string
	nodes, cpu, mem int
}

// parseReplicaSetCreate reads the one body whose sizes are JSON numbers.
func parseReplicaSetCreate(c *call) (in replicaSetInput, err error) {
	b, err := parseBody(c)
	if err != nil {
		return in, err
	}
	if in.name, err = b.name(); err != nil {
		return in, err
	}
	for _, f := range []struct {
		name string
		dst  *int
	}{{"nodes", &in.nodes}, {"cpu_millis", &in.cpu}, {"memory_gbs", &in.mem}} {
		v, ok, err := b.integer(f.name)
		switch {
		case err != nil:
			return in, err
		case !ok:
			return in, badRequest(f.name, "is required")
		case v < 1:
			return in, badRequest(f.name, "must be at least 1")
		}
		*f.dst = v
	}
	return in, nil
}

// name reads a create's required "name", checked as the API checks names.
func (b jsonBody) name() (string, error) {
	name, err := b.required("name")
	if err != nil {
		return "", err
	}
	return name, checkName("name", name)
}
