// Package chaos is the chaos soak of the SDK: deploy workflows run through
// a fault-injecting proxy, to prove that the SDK finishes them and never
// duplicates or loses a resource.
//
// Run starts the fake API on a loopback socket behind a recorder (which
// notes every resource the server actually creates and every password it
// issues), and in front of it a reverse proxy on its own socket (which
// notes every password a client sends with updatePassword, before it
// decides the request's fault) that faults a seeded share of the requests:
// a 5xx from the proxy or after the server acted, a 429 with Retry-After, a
// TCP reset before or after the server acted, a cut-off or malformed body,
// a latency spike.
// Workflows (create a service, wait, resize, wait, create a replica set,
// wait, read all logs, delete both, wait) run concurrently through one
// client with create recovery, each call with its own deadline; a failed
// workflow cleans up what it learned. At the end the model is read
// directly and the report says how many workflows completed, which faults
// were injected, how every call ended, and whether anything was created
// twice, left behind unknown, late, leaked or logged a secret.
package chaos
