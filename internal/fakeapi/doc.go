// Package fakeapi is a stateful, in-memory fake of the database service API,
// with the status codes, error bodies and input rules of the live service.
// It models the service, with statuses that move with a clock, input validation,
// conflicts and logs, instead of replaying scripted answers, so that the
// SDK's behaviour tests and the quickstart example run with no account and no
// network.
//
// New returns an http.Handler for httptest.NewServer; Start serves one on a
// real socket:
//
//	srv, err := fakeapi.Start("", fakeapi.Options{Step: 500 * time.Millisecond})
//	if err != nil { ... }
//	defer srv.Close()
//	// srv.URL (ending in /v1), srv.APIKey and srv.ProjectID are ready to use.
//
// Every request needs "Authorization: Bearer <key>" (else 401 UNAUTHORIZED).
// Every response carries X-Request-Id, and Content-Type: application/json
// when it has a JSON body. Errors have the body
// {"code", "message", "details"} with the codes INVALID_REQUEST (400),
// UNAUTHORIZED (401), NOT_FOUND (404, also for unknown paths and projects),
// METHOD_NOT_ALLOWED (405, with an Allow header) and CONFLICT (409).
// Path segments are unescaped one by one, so an id holding "%2F", "%3F" or
// ".." stays one segment: an unknown id, never another route.
//
// # Time
//
// Nothing runs in the background but the listeners of live endpoints, which
// only answer: no timer. An asynchronous operation stores a plan of
// statuses, one Options.Step apart, and every read (a connection to a live
// endpoint too) computes the current status from Options.Clock. With a ManualClock, tests
// move resources with Advance. With Step 0 a plan completes at once, but the
// operation's own response still shows the plan's first status.
//
// # Service statuses
//
//	operation    needs the service          plan, one Step per status               else
//	create       -                          QUEUED -> CONFIGURING -> READY
//	forkService  READY                      new service QUEUED -> CONFIGURING -> READY  409
//	stop         READY                      PAUSING -> PAUSED                       409
//	start        PAUSED                     RESUMING -> READY                       409
//	resize       READY                      CONFIGURING -> READY (new sizes shown)  409
//	setHA        READY                      CONFIGURING -> READY (new counts shown) 409
//	delete       not DELETING or DELETED    DELETING -> gone, then 404              409
//
// The synchronous operations take effect at once and do not need READY: any
// status but DELETING and DELETED (409) will do, as pausing a service does
// not stop it from being configured.
//
//	operation       also 409 when
//	enablePooler    the pooler is on
//	disablePooler   the pooler is off
//	attachToVPC     the service is attached to any VPC
//	detachFromVPC   the service is not attached to that VPC
//	updatePassword  -
//	setEnvironment  -
//
// SetStatus forces any status, DELETED included, and cancels pending steps.
// A DELETED service stays readable and refuses every change, delete
// included, like a DELETING one.
//
// # Read replica set statuses
//
// Every change to a set also needs its service not DELETING or DELETED.
//
//	operation       needs the set   plan, one Step per status     else
//	create          -               creating -> active            409 unless the service is READY
//	resize          active          resizing -> active            409
//	delete          not deleting    deleting -> gone              409
//	enablePooler    not deleting    pooler on at once             409 when already on
//	disablePooler   not deleting    pooler off at once            409 when already off
//	setEnvironment  not deleting    at once
//
// Deleting a service moves its sets to deleting; they are gone with it.
// SetReplicaSetStatus forces a status such as "error" (from which resize is
// refused and delete allowed).
//
// # Fields and defaults
//
//   - service_type: addon "time-series" gives TIMESERIESDB (also when "ai" is
//     there too: the time-series type carries the AI extensions), "ai" alone
//     VECTOR, none POSTGRES.
//   - region_code us-east-1, environment DEV, 500 millicores and 2 GB;
//     "shared" is 250 millicores and 1 GB. volume_type is gp3.
//   - replica_count becomes ha_replicas.replica_count; sync_replica_count
//     starts at 0.
//   - endpoint is <service_id>.<project_id>.fake.dbcloud.test:5432; the pooler
//     is the same host on 6432; vpc_endpoint and vpcEndpoint (the same object)
//     are <service_id>.<project_id>.vpc.fake.dbcloud.test:5432 with vpc_id.
//     With live endpoints, endpoints and poolers are 127.0.0.1:<port> instead.
//   - Always present: created, endpoint, ha_replicas, metadata,
//     read_replica_sets, resources. Only when they apply: connection_pooler,
//     vpc_endpoint and vpcEndpoint, forked_from, metrics (READY only), and
//     initial_password (create and fork responses only).
//   - A fork inherits service type, region, volume and sizes (unless given),
//     has no HA replicas, pooler, VPC or sets, is named <parent name>-fork and
//     tagged DEV unless told otherwise, and has forked_from
//     {project_id, service_id, is_standby: false}.
//   - A replica set's environment starts as its service's; its endpoint host
//     is <set id>.<service host>.
//
// # Validation
//
// Checks run in this order: route (404, 405), project, service (404),
// replica_set_id shorter than 3 characters (400), replica set (404), body
// (400), status (409). A 400 is INVALID_REQUEST with a message that starts
// with the field: "name: must be 1 to 128 characters".
//
//   - Bodies: Content-Type application/json (parameters allowed), at most
//     1 MiB, a JSON object. Unknown fields are ignored; null is absent.
//   - JSON types as the API defines them: cpu_millis and memory_gbs are
//     strings in create, fork and both resizes, numbers in replica set
//     create. Integers are JSON integer literals (no fraction, no exponent)
//     up to 2147483647.
//   - name: 1 to 128 characters (create, fork, replica set create).
//   - create and fork sizes: digits (at least 1) or "shared"; "shared" for
//     both or neither. Resize sizes: required, digits only, at least 1.
//   - replica set create: name, nodes, cpu_millis, memory_gbs required,
//     integers >= 1.
//   - replica_count, sync_replica_count: integers >= 0. setHA needs one of
//     them; one left out keeps its value; sync may not exceed replica_count.
//   - region_code: a non-empty string. addons: an array of "time-series" and
//     "ai". environment_tag and environment: exactly DEV or PROD.
//   - vpc_id: required, digits only. password: required, not empty; it is
//     neither kept nor logged.
//   - fork_strategy: LAST_SNAPSHOT, NOW or PITR. PITR needs target_time, RFC
//     3339, not after now and not before the parent was created; other
//     strategies ignore target_time.
//   - logs query: node an integer >= 0; each search and severities value not
//     blank; since and until RFC 3339 with until after since; cursor issued
//     for this service. A parameter given with an empty value is invalid.
//
// # Logs
//
// A service's history starts with PostgreSQL startup lines (one entry of
// each severity LOG, INFO, WARNING, ERROR and FATAL, and standby lines on
// HA replica nodes), gets a line for each lifecycle event (stop, start,
// resize, HA, pooler, VPC, password, environment, fork, replica sets), and
// older entries from SeedLogs. Entries are stored as template numbers and
// arguments, so 100,000 of them cost a few megabytes.
//
// The endpoint returns at most 500 entries, newest first, as both entries
// and logs. last_cursor and lastCursor are present only when an older entry
// matching the filters exists. Filters: since <= timestamp < until (adjacent
// windows neither overlap nor leave gaps; with Options.SinceExclusive,
// since < timestamp, the other reading of the API's "after this time");
// every search term must occur, case-insensitively; severities keep any of
// the given levels, in any case (an unknown level matches nothing); node
// keeps one node (0 is the primary, HA replicas are 1..n; another number
// gives an empty page).
//
// A cursor is an opaque position in the history with a MAC over it and the
// service, so forged or foreign cursors are refused (400). It does not carry
// the filters: each page request repeats them, as a client following
// last_cursor does, and the walk continues in the same filtered order. A
// cursor issued for a read with until keeps its place while newer entries
// are added. One issued for a read without until is positioned, as the live
// service's are, relative to the newest entry at each request: an entry
// added between two page requests pushes the next page back by one, so it
// repeats the previous page's oldest entry. A client that fixes until for
// the whole read (the SDK's AllLogs does) never meets this.
//
// Histories can grow while a reader follows them: AppendLogs adds given lines
// at the newest end (timestamps never go backwards), and with
// Options.LogInterval every service writes a generated line each interval of
// the clock, written when the clock is next read. Options.LogRetention bounds
// each history to its newest entries, so that a fake fed for hours stays
// small.
//
// # Live endpoints
//
// With Options.LiveEndpoints (always on with Start), each endpoint handed
// out (a service's, its pooler's, a replica set's, its pooler's) is a
// listener on its own loopback port, opened with its resource (a pooler's
// when first enabled) and closed when the resource is gone or the API is
// closed. A connection is judged once, when accepted, on Clock:
//
//	the resource (its pooler for a pooler endpoint)   the connection
//	not READY (a set: not active), or pooler off      reset at once (RST)
//	READY for less than Options.ConnectDelay          ErrorResponse FATAL 57P03 "the database system is starting up"
//	READY for ConnectDelay or more                    AuthenticationSASL (SCRAM-SHA-256)
//
// "READY for" counts from the start of the current READY (or active)
// status, so a start, a resize or a fork warms up again. An SSLRequest or a
// GSSENCRequest is answered 'N'; the answer to the startup message is sent
// and the connection closed. A deleted service's endpoints reset
// connections until it is gone; its listeners close at the first request
// or helper call after that, and then nothing listens there. A live endpoint reads the clock
// once per connection: with a TickingClock, probes move time as polls do.
//
// Live endpoints cost a goroutine and a port each. An API made by New
// with LiveEndpoints must be closed (API.Close) after the HTTP server in
// front of it; Server.Close does both.
//
// # Faults and counts
//
// InjectFault queues a Fault, matched before authentication and routing, the
// first matching one in the order added. Count counts every request, faulted
// and failed ones included, by method and escaped path. With
// Options.RecordRequests, Requests lists them in the order they arrived,
// each with the status sent (set before the first byte of the answer).
//
// Go's http.Transport silently retries a GET (or HEAD, OPTIONS, TRACE) that
// fails on a reused keep-alive connection before any response byte arrives,
// so a Drop fault on such a request may be consumed by that retry without the
// caller seeing an error; use Times: 2 or a fresh connection to observe it.
package fakeapi
