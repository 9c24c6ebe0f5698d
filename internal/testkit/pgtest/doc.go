// Package pgtest runs throw-away PostgreSQL servers for tests: initdb into
// the test's temporary directory, a free loopback port, a user that is not
// root, and a server stopped when the test ends, also when it fails.
//
// New skips the test when no PostgreSQL server is installed, unless the
// environment has CI=true: there a missing server fails the test, so that
// CI cannot pass by skipping. Linux only.
package pgtest
