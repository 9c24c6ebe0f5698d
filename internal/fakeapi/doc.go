// Package fakeapi is the engine of the fake of the database service API: a
// stateful, in-memory model with the status codes, error bodies and input
// rules of the live service. Package dbcloudtest is its public face, the
// one the examples and the chaos soak use.
//
// # The model
//
// What the model does (the statuses and their transitions, the state tables
// of services and replica sets, a new service's fields and defaults, the
// answers and their order of checks, validation, logs and cursors, and the
// database endpoints) is stated once, in the package doc of
// [github.com/dbcloud/dbcloud-go/dbcloudtest], under "What the model does"
// and "Endpoints". This package implements that statement; what follows is
// only how it does so and what its own Options change.
//
// New returns an http.Handler for httptest.NewServer; Start serves one on a
// real socket:
//
//	srv, err := fakeapi.Start("", fakeapi.Options{Step: 500 * time.Millisecond})
//	if err != nil { ... }
//	defer srv.Close()
//	// srv.URL (ending in /v1), srv.APIKey and srv.ProjectID are ready to use.
//
// # Time
//
// Nothing runs in the background but the listeners of live endpoints, which
// only answer: no timer. An asynchronous operation stores a plan of
// statuses, one Options.Step apart, and every read (a connection to a live
// endpoint too) computes the current status from Options.Clock (the
// machine's time when nil). With a ManualClock, tests move resources with
// Advance; a TickingClock moves one tick at each read. SetStatus and
// SetReplicaSetStatus replace a plan by the status they force.
//
// # What only Options change
//
//   - Without Options.LiveEndpoints (New's default; Start turns it on) no
//     listener is opened: a service's endpoint is
//     <service_id>.<project_id>.fake.dbcloud.test:5432, its pooler the same
//     host on 6432, its vpc_endpoint
//     <service_id>.<project_id>.vpc.fake.dbcloud.test:5432, and a replica
//     set's host <set id>.<service host>.
//   - Options.SinceExclusive makes the logs endpoint's since bound exclusive
//     (since < timestamp), the other reading of the API's "after this
//     time", so that clients are tested against both.
//   - Options.RecordRequests keeps every request for Requests, each with the
//     status sent (set before the first byte of the answer); Count counts
//     every request, faulted and failed ones included, by method and
//     escaped path, whether or not requests are recorded.
//
// Log entries are stored as template numbers and arguments, so 100,000 of
// them cost a few megabytes; Options.LogInterval lines are written when the
// clock is next read, and Options.LogRetention trims at the next request or
// helper call.
//
// A live endpoint reads the clock once per connection: with a TickingClock,
// probes move time as polls do. Its listener closes at the first request or
// helper call after its resource is gone. Live endpoints cost a goroutine
// and a port each. An API made by New with LiveEndpoints must be closed
// (API.Close) after the HTTP server in front of it; Server.Close does both.
//
// # Faults
//
// InjectFault queues a Fault, matched before authentication and routing,
// the first matching one in the order added. dbcloudtest.Server.InjectFault
// says how Go's http.Transport may consume a Drop of a GET.
package fakeapi
