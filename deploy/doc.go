// Package deploy brings a project to a desired state of dbcloud services:
// its fleet, any number of services, each with its read replica sets and
// its forks, and the VPCs they attach to, each with its peering
// connections, described as a State; and takes it down again.
//
// State.Plan reads the project once (a list of its services, and a list
// of replica sets for each existing service whose sets the state manages
// or prunes; for a state with VPCs, a list of the project's VPCs, and of
// the peerings of each of the state's VPCs that names peerings) and
// computes, once, every change a run makes. First each VPC of the state
// (created, or renamed when the state names it by id) and its peerings
// (created and waited for until active; with State.Prune, those it does
// not name deleted). Then for each service, in the
// order a run makes them: the service (created, or
// started and waited for until READY, then resized, HA replicas,
// environment, pooler, VPC), each replica set (created, then resized,
// environment, pooler), each fork (created), then, with State.Prune, the
// deletions of its sets and forks the state does not name; last, with
// State.PruneServices, the deletions of the project's services it does not
// name, and, with State.PruneVPCs, of the VPCs it does not name, each
// after the detachment of the services on it. It sends only GETs, so it
// works on a client made with
// dbcloud.WithReadOnly, and prints as text for a reviewer's CI log
// (Plan.String) and as JSON. What a plan cannot do (a replica set's node
// count, a service's type, a name two live resources share, the deletion
// of a service or VPC the state protects, a VPC's range or region, a
// peering that failed) is a Problem: Plan returns the plan
// with a *ProblemError naming every problem of every service, and no
// Apply runs it.
//
// Plan.Apply makes exactly the plan's changes and no others: the plan a
// reviewer approved is the plan that runs. It makes the changes of one
// service in order, a fork's after its parent's, a service's after those
// of the state's VPC it attaches to, a peering's after its VPC's, and
// those of different services at once, up to WithParallelism
// (DefaultParallelism, 10); their
// waits share the client's poller, so a hundred services waited for cost
// the polls of one. A service whose change fails stops, with its forks;
// the others go on. The run's error joins one error per failed service,
// each naming its resource, and its Result holds a Record of every change:
// what the run made of it. A cancelled context stops every service before
// its next step; a create already sent is seen to its answer (within the
// run's deadline), so that the resource and its password are not lost in
// flight.
//
// Each step re-checks its own precondition before it sends anything: an
// update finds its field as the plan expected (it sends) or as it wants
// (already done, nothing sent), a create finds no resource of its name
// (it creates) or one (already done), a delete finds its resource or not.
// Anything else stops its service with a *StalePlanError naming the
// resource, the field, what the plan expected and what it found. A plan
// applied later (a Plan value kept, or one read back from JSON) is first
// checked whole, every service of it, against a fresh read, before
// anything is sent. State.Apply is the
// one-call form: it plans and applies that plan, reusing the plan's reads.
//
// Files. A State and a Plan are JSON files too, for a script or a CI job
// that reviews a plan in one job and applies it in another (the command
// github.com/dbcloud/dbcloud-go/cmd/dbcloud-deploy does): ParseState and
// ParsePlan read them strictly, refusing an unknown field, a field given
// twice and a required one left out with a *ParseError naming the field
// and its line; json.Marshal writes them, a plan with its format
// (PlanFormat) first and, in Plan.Seen, what it was planned against, so
// that applying it later refuses it once it is stale. docs/deploy.md gives
// the schema.
//
// State.PlanDestroy and State.Destroy are the same for a teardown, in the
// reverse order: of each service, the forks the state names, every replica
// set, then the service, each deleted and waited for until gone; then, once
// every service is gone, each VPC of the state, after its peerings and the
// detachment of any other service on it; what is gone already is done. A
// service (VPC) is deleted by a plan only by a destroy or with
// PruneServices (PruneVPCs), never one that State.Protected names.
//
// Every run can be cut short at any point (a crash, a cancelled context,
// a network fault) and is finished by the next run of the same call,
// without a duplicate and without leftovers: a resource found created is
// already done, a delete under way is waited for. That is the one re-run
// pattern this package recommends: on any failure, run the same Apply (or
// Destroy) again. A re-run after a success sends the plan's reads and
// nothing else.
//
// Passwords. A new service's or fork's password exists once, in the
// create's answer. A run hands every password it obtains to the hook of
// WithPasswords as soon as it exists, before the next step, and returns
// the created resources, with their passwords, in its Result, also when it
// fails or is cancelled right after the create. Its creates use create
// recovery (dbcloud.WithCreateRecovery, on a client made with
// dbcloud.Client.With), so a create whose answer was lost is found within
// the run, with a new password that reaches the hook the same way. Two
// cases leave a service nobody holds the password of: a crash between a
// create's answer and the hook's return, and a create whose answer was
// lost so close to the run's deadline that recovery could not finish (the
// run's error says the service may have been created). The next run finds
// the service, and has no password to hand: set a new one with
// dbcloud.ServicesClient.UpdatePassword.
//
// Resources are found by name: a service by its name in the project,
// replica sets by name in their service, forks by name and parent, a VPC
// by its name (or by the id the state gives it), a peering by its peer. Names are
// the identity, so two deploys of one project must not run at once (a CI
// concurrency group); two racing runs still make each change once, the
// loser reading the API's 409 as already done.
//
// Observers. When the client has a dbcloud.Observer, each run is a unit of
// work ("deploy.Apply" or "deploy.Destroy", a dbcloud.CallInfo with Unit
// set) under the context the run was given; each
// service's changes are one inside it ("deploy.service", or "deploy.fork"
// for a fork's), at once where they ran at once; each step is one inside
// its service's ("deploy.create", "deploy.update", "deploy.delete",
// naming its resource; its EndCall names the resource's id, the one its
// create gave it for a create); and every call of a step, its waits'
// polls included, runs under the step's context: a tracer (the otel
// module's Observer) shows run, service, step, call and attempt.
//
// This package uses only the dbcloud package's public API: what it does, a
// user's code could do too.
package deploy
