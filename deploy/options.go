package deploy

import (
	"github.com/dbcloud/dbcloud-go"
)

// Option configures a run: State.Apply, State.Destroy, Plan.Apply.
type Option func(*options)

type options struct {
	progress    []func(Progress)
	passwords   []func(Password) error
	waits       []dbcloud.WaitOption
	parallelism int
}

// WithWaitOptions adds options to every wait of a run: a timeout, a poll
// interval, stop statuses (dbcloud.WithStopOn).
func WithWaitOptions(opts ...dbcloud.WaitOption) Option {
	return func(o *options) { o.waits = append(o.waits, opts...) }
}

// DefaultParallelism is how many chains of changes (a service's, a
// fork's, a VPC's, a peering's) a run makes at once unless
// WithParallelism says otherwise. It is Terraform's default, which
// platform teams know; and it bounds what a run sends at once, not what it
// waits for: the waits of a run share the client's poller, one list a tick
// whatever their number, so a higher bound costs the API the burst of
// creates and updates it starts together, and no more polls.
const DefaultParallelism = 10

// WithParallelism sets how many chains of changes a run makes at once: the
// changes of a service (the service, then its replica sets) are made one
// after the other, as are a fork's, after its parent's (a destroy: before
// it), a VPC's, before the services attaching to it (a destroy: after
// every service), and a peering's, after its VPC's; those of different
// services at once, up to n. n < 1 is 1: one chain after the other, those
// that wait for none first, each group in the plan's order.
func WithParallelism(n int) Option {
	return func(o *options) { o.parallelism = max(n, 1) }
}
