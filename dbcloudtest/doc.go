// Package dbcloudtest runs a fake of the dbcloud API inside a test, so that
// code written on the SDK (deploy functions, controllers, command-line
// tools) can be tested with no account, no network and no sleeps. It is to
// the SDK what net/http/httptest is to net/http: NewServer serves on a free
// loopback port, Client returns a *dbcloud.Client pointed at it, Close stops
// it.
//
// The server is a model of the service, not a set of canned answers: every
// endpoint (the 23 of services and replica sets, and the caller's identity,
// projects, renames, VPCs, their peering connections and metric series),
// statuses that move through the same states as the real ones,
// input validation with the API's 400s, a 409 when an operation does not fit
// the current status, a 404 once a resource is gone, and logs with cursors
// and filters. The code under test meets the answers it meets in production,
// and the test can look at the state behind them, change it, and break the
// network on purpose.
//
// # Testing a deploy function
//
// Take the code under test to be a function that makes sure a service
// exists and is ready:
//
//	func deploy(ctx context.Context, client *dbcloud.Client, projectID, name string) (*dbcloud.Service, error) {
//		svc, err := client.Services.Create(ctx, projectID, &dbcloud.CreateServiceRequest{Name: name})
//		if err != nil {
//			return nil, err
//		}
//		return client.Services.WaitForReady(ctx, projectID, svc.ServiceID)
//	}
//
// Its test starts a server, gives deploy a client of it, and checks both
// what deploy returned and what the server now holds:
//
//	func TestDeploy(t *testing.T) {
//		srv := dbcloudtest.NewServer()
//		defer srv.Close()
//
//		svc, err := deploy(t.Context(), srv.Client(), srv.ProjectID, "orders")
//		if err != nil {
//			t.Fatal(err)
//		}
//		if svc.Status != dbcloud.StatusReady {
//			t.Errorf("status %s, want READY", svc.Status)
//		}
//		if got := srv.Services(); len(got) != 1 || got[0].Name != "orders" {
//			t.Errorf("services on the server: %+v", got)
//		}
//	}
//
// The wait returns at once: by default an operation is complete by the next
// read, and the waits of a client from Client check within a millisecond
// (see Time and Server.Client).
//
// The error paths are where such code breaks, and where the server helps
// most:
//
//   - A 409. Put the service where the API refuses the call, with the API
//     itself (Stop it, then Resize it; enable its pooler twice) or with
//     SetStatus, and check that the code branches on
//     errors.Is(err, dbcloud.ErrConflict).
//   - A failure. InjectFault answers the next matching request with a status
//     (a 503, a 429 with Retry-After), a dropped connection (before or after
//     the server acted), a body cut in half, or a delay. The SDK's retries
//     meet it as they would meet the real API: a GET is retried, a create is
//     not, since repeating it could make a second, billed service; its error
//     matches dbcloud.ErrMaybeCreated when the service may exist, and a
//     client with dbcloud.WithCreateRecovery finds out by itself.
//   - A wait that times out. WithStep(time.Hour) and no Advance keep a new
//     service QUEUED; the wait's timeout (WithWaitTimeout, or the context's
//     deadline) then ends it with a *dbcloud.WaitError for which
//     errors.Is(err, context.DeadlineExceeded) holds.
//
// Count and Requests show what the code sent (ResetRequests starts them
// again after a test's setup); Service and Services show the state it left.
// The Example functions of this package are such tests. A deploy meant to be
// run again (see the deploy package) is tested by running it twice: the
// second run's requests (Requests after ResetRequests) must all be GETs.
//
// # Time
//
// The server has a clock of its own that moves only when the test moves it,
// with Advance, so a test sees the same statuses however slow the machine
// is. It starts at the real time of NewServer, or at WithStartTime.
//
// An asynchronous operation (create, fork, delete, start, stop, resize,
// setHA, and a replica set's create, resize and delete) lays out its
// statuses one step apart on that clock (a VPC has no status, and a peering
// connection waits for its peer: see VPCs and peering connections):
//
//   - WithStep(0), the default: the operation's own response shows its
//     first status (a create's shows QUEUED) and the next read shows its last
//     (READY). A wait's first check, within a millisecond on a client
//     from Client, finds the final status: a whole deploy takes one
//     request per call and no more than milliseconds.
//   - WithStep(d): each status lasts d of the server's clock, and Advance(d)
//     moves every pending operation one status on. Use it to test what the
//     code does in between: its progress output, a call refused while a
//     service is PAUSING, a timeout.
//
// For example:
//
//	srv := dbcloudtest.NewServer(dbcloudtest.WithStep(time.Minute))
//	svc, err := client.Services.Create(ctx, srv.ProjectID, req) // QUEUED
//	srv.Advance(time.Minute)                                    // CONFIGURING
//	srv.Advance(time.Minute)                                    // READY
//
// A wait inside the code under test polls in real time: every 1 ms,
// growing to 10 ms, on a client from Client (every 1 s growing to 10 s with
// the SDK's defaults, and with WithRealTime). With WithStep(d) > 0, move
// the clock from the test while the code waits, or, when the code takes
// wait options, from a dbcloud.WithProgress callback, which runs after each
// poll:
//
//	dbcloud.WithProgress(func(dbcloud.WaitProgress) { srv.Advance(time.Minute) })
//
// Two other clocks suit code the test cannot reach into. With
// WithTickingClock(tick) the clock also moves tick each time the server
// reads it (once per request and per connection to an endpoint): a whole
// command that polls by itself, tested through its main, sees every status
// with WithStep(2*tick), on a fast machine or a loaded one, and nothing
// sleeps. With WithRealTime it follows the machine's time, for a server
// that people watch, as examples/quickstart and examples/fakeserver are;
// Advance moves both.
//
// Because the clock stands still between Advance calls (or ticks ahead of
// the machine's), the server's time and time.Now differ. The one place the
// server judges a time it is sent, a PITR fork's TargetTime, which must lie
// between the parent's creation and now, it judges on both clocks and takes
// a target that fits either: code under test that computes its target from
// time.Now (a deploy that forks as of the moment it runs) needs no clock
// parameter. (A target derived from Server.Now fits the server's clock,
// but once Advance has moved it ahead of the machine's, the SDK refuses it
// as in the future before sending.) A log entry that AppendLogs adds
// without a Timestamp is stamped Now.
//
// # Outside a test's own calls
//
// Code under test that builds its client with dbcloud.NewClientFromEnv
// reaches the server after Setenv(t), which sets DBCLOUD_API_KEY,
// DBCLOUD_BASE_URL and DBCLOUD_PROJECT_ID for the test. Handler is the same
// model as an http.Handler, to serve behind the caller's middleware or proxy
// (httptest.NewServer(mw(srv.Handler()))); what goes through it is counted,
// faulted and changes the state as requests to URL do. NewServerAt serves
// on an address of the caller's choosing and returns an error where
// NewServer panics, for a program that serves the fake (examples/fakeserver,
// with WithRealTime, WithLogInterval, WithLogRetention and
// WithRequestLog(false) so that it stays small however long it runs).
//
// # Faults
//
// InjectFault arms a Fault for the next Times requests that match its
// Method and Path ("*" stands for one path segment):
//
//	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: "/projects/*/services", Status: 503})
//	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services/*", Times: 2, Drop: true})
//	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: "/projects/*/services", Drop: true, AfterHandling: true})
//	srv.InjectFault(dbcloudtest.Fault{Status: 429, Header: http.Header{"Retry-After": {"30"}}})
//
// The first makes Services.Create fail with an *dbcloud.APIError matching
// dbcloud.ErrServer, not retried, and dbcloud.ErrMaybeCreated, since a 503
// may come after the API acted; the second resets two GETs of a service,
// which the SDK retries; the third creates the service and then resets the
// connection, as a proxy dying at the wrong moment would, so the code must
// find out whether its create happened (the error matches
// dbcloud.ErrMaybeCreated; with dbcloud.WithCreateRecovery, Create lists and
// returns the service instead); the fourth rate-limits the next request of
// any kind. Faults are matched before authentication and routing
// and used up in the order they were injected. Clients from Client retry
// after 1 to 5 ms, so retries cost a test nothing; a Retry-After longer than
// that is not slept, and the error comes back with RetryAfter set.
//
// # What the model does
//
// This section, the three after it and Endpoints are the one statement of
// the fake's model: the
// implementation behind Server (this package's internal packages: model
// beneath httpapi beneath the Server API), the SDK's behaviour tests, the
// examples and the chaos soak all meet this model, and their docs point
// here. What the SDK sends to it, endpoint by endpoint, and how it pages a
// log read, is the repository's docs/wire.md: the reference for a proxy or a
// fake of the API in another language.
//
// Service statuses move like this, one step each; an operation that finds
// the service in another status gets 409 CONFLICT:
//
//	operation     needs the service        then
//	create        -                        QUEUED -> CONFIGURING -> READY
//	forkService   READY                    a new service QUEUED -> CONFIGURING -> READY
//	stop          READY                    PAUSING -> PAUSED
//	start         PAUSED                   RESUMING -> READY
//	resize        READY                    CONFIGURING -> READY, new sizes shown at once
//	setHA         READY                    CONFIGURING -> READY, new counts shown at once
//	delete        not DELETING or DELETED  DELETING -> gone: 404 from then on
//
// The other operations take effect at once, in any status but DELETING and
// DELETED (409): they do not need READY, as pausing a service does not stop
// it from being configured. enablePooler and disablePooler answer 409 when
// the pooler already is on or off; attachToVPC answers 404 when its vpc_id
// is not a VPC of the service's project (as an unknown id anywhere is
// answered) and 409 when the service is attached to a VPC, and
// detachFromVPC 404 likewise and 409 when the service is not attached to
// that one. rename (which answers the service, renamed), updatePassword and
// setEnvironment have no other condition. SetStatus
// forces any status and cancels the statuses still planned; a DELETED
// service (only SetStatus leads there) stays readable and refuses every
// change, delete included, as a DELETING one does.
//
// Read replica sets move like this; every change also needs the service not
// DELETING or DELETED:
//
//	operation       needs the set   then
//	create          -               creating -> active (the service must be READY, else 409)
//	resize          active          resizing -> active
//	delete          not deleting    deleting -> gone
//	enablePooler    not deleting    on at once (409 when already on)
//	disablePooler   not deleting    off at once (409 when already off)
//	setEnvironment  not deleting    at once
//
// Deleting a service moves its sets to deleting; they are gone with it.
// SetReplicaSetStatus forces a status such as error, from which a resize is
// refused and a delete allowed.
//
// What a new service looks like: the addon "time-series" makes it
// TIMESERIESDB (with "ai" too: the time-series type carries the AI
// extensions), "ai" alone VECTOR, none POSTGRES; the defaults are region
// us-east-1, environment DEV, 500 millicores and 2 GB ("shared" gives 250
// millicores and 1 GB), volume type gp3; replica_count becomes its HA
// replica count, and its sync replica count starts at 0. Its endpoint is a
// port of its own on 127.0.0.1, and so are its pooler's and each replica
// set's (see Endpoints). Always present in its answers: created, endpoint,
// ha_replicas, metadata, read_replica_sets, resources; only when they apply:
// connection_pooler, vpc_endpoint (also as vpcEndpoint), forked_from,
// metrics (only while READY) and initial_password (in the
// answers of create and fork only). A fork inherits type, region, volume and
// sizes (unless given), has no HA replicas, pooler, VPC or sets, is named
// "<parent>-fork" unless named, is DEV unless tagged, and has forked_from
// {project_id, service_id, is_standby: false}. A replica set's environment
// starts as its service's.
//
// Every request needs "Authorization: Bearer <key>" (or, on a server made
// WithPersonalAccessToken or WithBearerTokens, that token), else 401 UNAUTHORIZED,
// and reaches the projects of Identity and projects below, else 404;
// every answer carries X-Request-Id. Errors have the body {"code",
// "message", "details"}: INVALID_REQUEST (400), UNAUTHORIZED (401),
// NOT_FOUND (404, for unknown ids, projects and paths alike),
// METHOD_NOT_ALLOWED (405, with an Allow header) and CONFLICT (409). Path
// segments are unescaped one by one, so an id holding "%2F", "%3F" or ".."
// stays one segment: an unknown id, never another route. Checks run in this
// order: route (404, 405), project, service (404), a replica_set_id shorter
// than 3 characters (400), replica set (404), VPC (404), peering connection
// (404), body (400), a vpc_id in the body the project does not hold (404),
// status (409).
//
// Validation answers 400 INVALID_REQUEST with a message that starts with the
// field ("name: must be 1 to 128 characters"):
//
//   - bodies: Content-Type application/json (parameters allowed), at most
//     1 MiB, a JSON object; unknown fields are ignored (but by a metric
//     series query, see Metrics), null is absent;
//   - JSON types as the API defines them: cpu_millis and memory_gbs are
//     strings in create, fork and both resizes, numbers in a replica set's
//     create; integers are integer literals (no fraction, no exponent) up to
//     2147483647;
//   - names of 1 to 128 characters (create, fork, replica set create, a
//     service's rename, where name is required); a VPC's name (create,
//     rename) any non-empty text, as the API states no limit for it;
//   - create and fork sizes: digits (at least 1) or "shared", for both or
//     neither; resize sizes: required, digits only, at least 1;
//   - a replica set's create: name, nodes, cpu_millis and memory_gbs
//     required, integers of at least 1;
//   - setHA: replica_count or sync_replica_count, integers of at least 0, one
//     left out keeps its value, sync not above the replica count;
//   - region_code a non-empty string; addons "time-series" and
//     "ai"; environment DEV or PROD;
//   - vpc_id required, digits only; password required, not empty, and
//     neither kept nor logged;
//   - a VPC's create: cidr an IPv4 network in CIDR notation whose address
//     is the network's own ("10.0.0.0/16", not "10.0.0.1/16"), region_code
//     required, not empty; a peering connection's create: peer_account_id,
//     peer_region_code and peer_vpc_id required, not empty;
//   - fork_strategy LAST_SNAPSHOT, NOW or PITR; PITR needs target_time, RFC
//     3339, between the parent's creation and now (others ignore it);
//   - a logs query: node an integer of at least 0, each search and
//     severities value not blank, since and until RFC 3339 with until after
//     since, a cursor issued for this service; a parameter given empty is
//     invalid.
//
// A service's log history starts with the lines of PostgreSQL starting up
// (one entry of each severity LOG, INFO, WARNING, ERROR and FATAL, and
// standby lines on HA replica nodes), gains a line for each lifecycle event
// (stop, start, resize, HA, pooler, VPC, rename, password, environment,
// fork, replica sets), and grows with SeedLogs (older generated entries),
// AppendLogs (newer ones of your own) and, with WithLogInterval, a generated
// line per interval; Logs returns all of it. The logs endpoint returns at
// most 500 entries a page, newest first (as both entries and logs), with a
// cursor (last_cursor, also as lastCursor) while an older entry matches;
// filters are since <= timestamp < until (adjacent windows neither overlap
// nor leave gaps), every search term (case-insensitive), any of the
// severities (in any case; an unknown one matches nothing), and the node (0
// the primary, 1..n the HA replicas; another number gives an empty page;
// AppendNodeLogs and NodeLogs give entries a node). WithExclusiveSince
// makes the since bound since < timestamp, since the API does not say
// which it is. A
// cursor is an opaque position signed for its service, so a forged or
// foreign one is refused (400); it does not carry the filters, which each
// page request repeats. Like the live service's, a cursor issued for a read
// without until is positioned relative to the newest entry at each request,
// so entries appended between two page requests repeat on the next page;
// with until set, a cursor keeps its place. The SDK's reads fix until for
// this reason (see dbcloud.ServicesClient.AllLogs). WithWindowCursors makes
// every cursor a depth within its window (from the newest entry before
// until), as the live service's are: the same text comes back in another
// window, meaning another place there.
//
// # Identity and projects
//
// The credentials say who calls, as GET /auth/info answers and GET
// /projects lists:
//
//   - the API key (the default) and the Bearer tokens of WithBearerTokens
//     are the fake's one user's: /auth/info answers {"type": "oauth",
//     "oauth": {"user": {"id": "1001", "name": "Fake User", "email":
//     "user@fake.dbcloud.test"}}}, and the user belongs to every project of
//     WithProjects, which /projects lists, in that order, and which it
//     reaches (a user in several projects: WithProjects("a", "b"));
//   - a personal access token (WithPersonalAccessToken) is scoped to the
//     first project, Server.ProjectID: /auth/info answers {"type": "apiKey",
//     "api_key": {...}} (and the same object as the deprecated "apiKey")
//     with public_key the token's public half, name "dbcloudtest", created
//     the server's start on its clock, project {id, name, plan_type "FREE"}
//     and issuing_user the user above; /projects lists that one project, and
//     any other answers 404 NOT_FOUND.
//
// A project's name is its id.
//
// # VPCs and peering connections
//
// A VPC (id, name, cidr, region_code) belongs to a project; its id is a
// string of digits, never reused, and it is what attachToVPC and
// detachFromVPC take. It has no status: its create answers 201 with it,
// its rename 200 with a message, and its delete 204, after which it and its
// peering connections are gone (404). A delete is refused (409) while a
// service not DELETING or DELETED is attached to it; a service being
// deleted loses its attachment with the VPC. Names and CIDRs need not be
// unique, nor CIDRs disjoint.
//
// A peering connection (id, peer_account_id, peer_region_code,
// peer_vpc_id, status, provisioned_id, and error_message once failed)
// belongs to a VPC; its create answers 201, pending, with the cloud
// provider's id "pcx-..." as provisioned_id, and its delete 204 whatever
// its status. The peer's side answers it, outside the API: it stays pending
// until the test calls AcceptPeering (active) or FailPeering (failed, with
// the message as error_message), or, WithPeerAcceptance(d), until d after
// its create on the server's clock (active).
//
// # Metrics
//
// The metrics endpoints (the API's preview) know a fixed set of series,
// which available-series lists, sorted, for every service. Every series of
// a service has, for its primary (labels role "primary", ordinal "0") and
// each HA replica n (role "replica", ordinal "n"), a sample each minute of
// the server's clock from the service's creation up to now: values made up
// from the service's sizes, fixed by WithSeed. RecordMetrics replaces a
// series' made-up samples by the test's own, to know the values a query
// answers.
//
// A series query (POST .../metrics/series) takes only name, from, to,
// bucket_seconds, fn and filters (any other field is a 400), and answers
// 400 INVALID_REQUEST, the field first, unless:
//
//   - name is a series available-series lists;
//   - from and to are RFC 3339 (nanoseconds allowed), to after from;
//   - bucket_seconds, when given, is an integer of at least 60 and not
//     finer than the window's tier: a window (to - from) up to an hour is
//     stored in buckets of a minute, up to 30 days of an hour, longer of a
//     day; the tier's bucket is the default. The window may hold at most
//     10000 buckets (the fake's own bound);
//   - fn, when given, is RATE, INCREASE, SUM, AVG, MIN, MAX, COUNT, P50,
//     P90, P99 or LAST (the default), and is not given at all for the
//     series that take no aggregation: the timescale_cloud_system_ series
//     (CPU, memory, disk, disk I/O) and timescale_cloud_database_qps,
//     _num_connections, _job_duration_usecs and _job_success; the
//     percentiles need a series stored as a sketch
//     (timescale_cloud_database_query_duration_ms);
//   - filters, when given, is an array of {"key", "value"} objects, both
//     non-empty strings, and nothing else.
//
// The answer is one series per node the filters keep (all must hold;
// values compared in any case, labels lowercased): without a role or
// ordinal filter, the CPU, memory, qps, connections and query duration
// series answer every node, the others the primary only. Each series has a point for every
// bucket of the window: buckets start at multiples of bucket_seconds since
// the Unix epoch, from the one holding from to the one holding the last
// instant before to, and a point's value aggregates by fn the samples in
// the bucket and in the window, or is null when there is none (before the
// service's creation, after now, or where recorded samples leave a gap).
// LAST is the last sample, P50 to P99 the nearest rank, INCREASE the last
// sample less the one before the bucket (or its first), RATE that per
// second of the bucket.
//
// # Endpoints
//
// Every endpoint the server hands out (a service's, its pooler's, a replica
// set's and its pooler's) is a listener on its own loopback port, opened
// with its resource (a pooler's when first enabled), that speaks the start
// of the PostgreSQL protocol, so that code waiting with WaitForConnectable,
// or probing the database itself, meets what it meets in production. A
// connection is judged once, when accepted, on the server's clock:
//
//	resource                     the endpoint
//	not READY (or active) yet    accepts and resets the connection
//	READY, within the delay      "the database system is starting up" (57P03)
//	READY, after it              an authentication request (SCRAM-SHA-256)
//	PAUSED, or a pooler off      accepts and resets the connection
//	DELETING, or deleted         accepts and resets the connection
//	gone (404), from the next    closed: the connection is refused
//	request to the server
//
// The delay is WithConnectDelay (0 by default), counted on the server's
// clock from the start of the current READY (or active) status, so a start,
// a resize or a fork warms up again, and Advance moves through it. An
// SSLRequest or a GSSENCRequest is answered "N" (no TLS); the answer to the
// startup message is sent and the connection closed. Close closes every
// listener.
//
// # What it does not model
//
// There is no database behind a service: its endpoint answers only the
// start of the PostgreSQL protocol, no query. Nothing is billed, nothing is rate-limited and no quota runs
// out, unless a fault says so. There is one user, and no permission but a
// token's project. Names need not be unique: two services may share one.
// A service's metrics field holds fixed numbers and its metric series
// made-up ones, forks copy no data, any non-empty region is accepted, and a
// peering connection's peer account, region and VPC are taken as given. The server speaks plain HTTP/1.1 on loopback,
// keeps its state in memory and forgets it on Close. Statuses the real API
// reaches on its own (UNSTABLE, UPGRADING, OPTIMIZING, a replica set in
// error) happen only through SetStatus and SetReplicaSetStatus.
//
// # Concurrency and cleanup
//
// One server serves any number of clients and goroutines at once, and its
// methods may be called while requests are in flight; every request sees
// the model whole, before or after another. Close stops the listener, ends
// every connection and held request, and returns when nothing of the server
// runs any more; it also closes the idle connections of the clients Client
// made. After Close, a dial to URL is refused.
//
// # Speed
//
// A request through a client costs about a tenth of a millisecond, a create
// about a third (it opens the service's endpoint): with WithStep(0), a whole
// create, wait for READY, delete and wait for the deletion takes well under a
// millisecond, so a test of a whole deploy runs in milliseconds.
package dbcloudtest
