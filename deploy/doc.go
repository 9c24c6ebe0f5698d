// Package deploy brings a project to a desired state of dbcloud services:
// one service, its read replica sets and its forks, described as a State.
//
// Plan reads what exists and says every change a run would make, sending
// nothing that changes anything: it works on a client made with
// dbcloud.WithReadOnly, and prints as text for a reviewer's CI log
// (Plan.String) and as JSON. Apply makes the changes, each as an ensure
// step of the dbcloud package (CreateUnlessExists, ForkUnlessExists,
// EnsureSize, EnsureHA, EnsureEnvironment, EnsurePooler, EnsureVPC), which
// reads first and sends a change only when one is needed, and waits where
// a step needs the one before it (a new service READY before its HA is
// set, a replica set active before its pooler). So Apply can be run again
// and again: a second run sends no request that changes anything, and a
// run cut short at any point (a crash, a cancelled context, a network
// fault) is finished by the next run, without a duplicate and without
// leftovers. That is the one re-run pattern this package recommends: on
// any failure, run the same Apply again.
//
// Resources are found by name: the service by its name in the project,
// replica sets by name in the service, forks by name and parent. Names are
// the identity, so two deploys of one project must not run at once (a CI
// concurrency group); see dbcloud.ServicesClient.CreateUnlessExists for
// what two racing runs meet.
//
// Apply deletes nothing unless State.Prune is set: then the replica sets
// of the service and the forks of it that the state does not name are
// deleted, after everything else is in place.
//
// This package uses only the dbcloud package's public API: what it does, a
// user's code could do too.
package deploy
