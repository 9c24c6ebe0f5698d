package httpapi

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

// The body of each operation, read and checked by the rules of the package
// documentation, once parseBody has found it a JSON object.

func (b jsonBody) create() (in model.ServiceSpec, err error) {
	if in.Name, err = b.name(); err != nil {
		return in, err
	}
	addons, _, err := b.stringList("addons")
	if err != nil {
		return in, err
	}
	in.Type = model.TypePostgres
	hasTS := false
	for _, ad := range addons {
		switch ad {
		case "time-series":
			hasTS = true
		case "ai":
			in.Type = model.TypeVector
		default:
			return in, apierr.BadRequest("addons", `each value must be "time-series" or "ai"`)
		}
	}
	if hasTS {
		in.Type = model.TypeTimeSeries // the time-series type also carries the AI extensions
	}
	if in.CPU, in.Mem, err = b.sizes(model.DefaultCPUMillis, model.DefaultMemoryGBs); err != nil {
		return in, err
	}
	if in.Env, err = b.env("environment_tag"); err != nil {
		return in, err
	}
	region, ok, err := b.str("region_code")
	switch {
	case err != nil:
		return in, err
	case !ok:
		in.Region = model.DefaultRegion
	case region == "":
		return in, apierr.BadRequest("region_code", "must not be empty")
	default:
		in.Region = region
	}
	if in.Replicas, _, err = b.integer("replica_count"); err != nil {
		return in, err
	}
	if in.Replicas < 0 {
		return in, apierr.BadRequest("replica_count", "must be at least 0")
	}
	return in, nil
}

func (b jsonBody) fork(now time.Time, parent *model.Service) (in model.ForkSpec, err error) {
	if in.Strategy, err = b.required("fork_strategy"); err != nil {
		return in, err
	}
	switch in.Strategy {
	case "LAST_SNAPSHOT", "NOW":
	case "PITR":
		if err := checkTargetTime(b, now, parent); err != nil {
			return in, err
		}
	default:
		return in, apierr.BadRequest("fork_strategy", "must be LAST_SNAPSHOT, NOW or PITR")
	}
	name, ok, err := b.str("name")
	switch {
	case err != nil:
		return in, err
	case !ok:
		in.Name = parent.Name() + "-fork"
	default:
		if err := checkName("name", name); err != nil {
			return in, err
		}
		in.Name = name
	}
	if in.CPU, in.Mem, err = b.sizes(parent.Sizes()); err != nil {
		return in, err
	}
	in.Env, err = b.env("environment_tag")
	return in, err
}

// checkTargetTime reads a PITR fork's target_time, which the parent's
// lifetime must hold (model.Service.CheckTargetTime).
func checkTargetTime(b jsonBody, now time.Time, parent *model.Service) error {
	v, ok, err := b.str("target_time")
	switch {
	case err != nil:
		return err
	case !ok:
		return apierr.BadRequest("target_time", "is required when fork_strategy is PITR")
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return apierr.BadRequest("target_time", "must be an RFC 3339 timestamp")
	}
	return parent.CheckTargetTime(t, now)
}

// resize reads the body of both resize operations: sizes are required
// and digits only ("shared" is for create and fork).
func (b jsonBody) resize() (cpu, mem int, err error) {
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

// setHA returns the counts the service will have: a field left out keeps
// its current value, and the result must stay consistent.
func (b jsonBody) setHA(replicas, sync int) (int, int, error) {
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
		return 0, 0, apierr.BadRequest("replica_count", "at least one of replica_count and sync_replica_count is required")
	case r < 0:
		return 0, 0, apierr.BadRequest("replica_count", "must be at least 0")
	case s < 0:
		return 0, 0, apierr.BadRequest("sync_replica_count", "must be at least 0")
	}
	if rOK {
		replicas = r
	}
	if sOK {
		sync = s
	}
	if sync > replicas {
		return 0, 0, apierr.BadRequest("sync_replica_count", fmt.Sprintf("must not exceed replica_count (%d)", replicas))
	}
	return replicas, sync, nil
}

// field reads the body of an operation whose one field is required and
// must pass check.
func (b jsonBody) field(field string, check func(field, v string) error) (string, error) {
	v, err := b.required(field)
	if err != nil {
		return "", err
	}
	if err := check(field, v); err != nil {
		return "", err
	}
	return v, nil
}

func (b jsonBody) vpc() (string, error) { return b.field("vpc_id", checkDigits) }

func (b jsonBody) password() (string, error) { return b.field("password", notEmpty) }

func (b jsonBody) environment() (string, error) { return b.field("environment", checkEnv) }

// replicaSet reads a replica set's create, the one body whose sizes are
// JSON numbers.
func (b jsonBody) replicaSet() (in model.SetSpec, err error) {
	if in.Name, err = b.name(); err != nil {
		return in, err
	}
	for _, f := range []struct {
		name string
		dst  *int
	}{{"nodes", &in.Nodes}, {"cpu_millis", &in.CPU}, {"memory_gbs", &in.Mem}} {
		v, ok, err := b.integer(f.name)
		switch {
		case err != nil:
			return in, err
		case !ok:
			return in, apierr.BadRequest(f.name, "is required")
		case v < 1:
			return in, apierr.BadRequest(f.name, "must be at least 1")
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

// vpcName reads a VPC's required "name": any non-empty text.
func (b jsonBody) vpcName() (string, error) { return b.field("name", notEmpty) }

// vpcCreate reads a VPC's create: a name (the API states no length limit
// for a VPC's, unlike a service's 1 to 128 characters), an IPv4 CIDR
// whose address is the network's own (10.0.0.0/16, not 10.0.0.1/16), and
// a region.
func (b jsonBody) vpcCreate() (in model.VPCSpec, err error) {
	if in.Name, err = b.vpcName(); err != nil {
		return in, err
	}
	if in.CIDR, err = b.field("cidr", checkCIDR); err != nil {
		return in, err
	}
	in.Region, err = b.field("region_code", notEmpty)
	return in, err
}

func checkCIDR(field, v string) error {
	p, err := netip.ParsePrefix(v)
	if err != nil || !p.Addr().Is4() || p != p.Masked() {
		return apierr.BadRequest(field, "must be an IPv4 network in CIDR notation, such as 10.0.0.0/16")
	}
	return nil
}

func notEmpty(field, v string) error {
	if v == "" {
		return apierr.BadRequest(field, "must not be empty")
	}
	return nil
}

// peeringCreate reads a peering connection's create: the peer's account,
// region and VPC, each required and not empty.
func (b jsonBody) peeringCreate() (in model.PeeringSpec, err error) {
	for _, f := range []struct {
		name string
		dst  *string
	}{{"peer_account_id", &in.Account}, {"peer_region_code", &in.Region}, {"peer_vpc_id", &in.PeerVPC}} {
		if *f.dst, err = b.field(f.name, notEmpty); err != nil {
			return in, err
		}
	}
	return in, nil
}
