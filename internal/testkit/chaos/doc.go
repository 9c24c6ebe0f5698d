// Package chaos is the chaos soak of the SDK: deploy workflows run through
// a fault-injecting proxy, to prove that the SDK finishes them and never
// duplicates or loses a resource.
//
// Run starts the fake API, a dbcloudtest.Server served through its Handler,
// on a loopback socket behind a recorder (which notes every resource the
// server actually creates and every password it issues), and in front of it
// a reverse proxy on its own socket (which notes every password a client
// sends with updatePassword, before it decides the request's fault) that
// faults a seeded share of the requests: a 5xx from the proxy or after the
// server acted, a 429 with Retry-After, a TCP reset before or after the
// server acted, a cut-off or malformed body, a latency spike. Workflows
// (create a service, wait, resize, wait, create a replica set, wait, read
// all logs, delete both, wait) run concurrently through one client with
// create recovery, each call with its own deadline; a failed workflow
// cleans up what it learned. At the end the model is read directly
// (dbcloudtest.Server.Services) and the report says how many workflows
// completed, which faults were injected, how every call ended, and whether
// anything was created twice, left behind unknown, late, leaked or logged a
// secret.
//
// Two regimes: DefaultConfig (10 s per call, spikes of 0.5 to 3 s) and
// DeadlineConfig, the one of issue #16 (3 s per call, half of the spikes
// held 3.5 to 10 s: past the deadline, a held connection as the caller sees
// it). Create recovery can be switched off (Config.Recovery), to compare
// workflows started per minute with and without it.
//
// Every failed workflow is classified (classes.go): the soak's client tags
// each request with its call's number, the proxy records what it did to
// each request (kind, when, how long it held it, whether it reached the
// server, whether the client left while it was held), and the failing
// call's records and error decide whether the client could have avoided the
// failure.
package chaos
