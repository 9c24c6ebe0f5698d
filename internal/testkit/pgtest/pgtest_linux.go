package pgtest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Host is where every cluster listens.
const Host = "127.0.0.1"

// startTimeout bounds initdb, pg_ctl and a stop: far above what they take
// (about a second), for a loaded CI machine.
const startTimeout = 60 * time.Second

// Cluster is a data directory made by initdb, and the server running on it
// when started. Its methods fail the test it is bound to on error: the test
// of New, or the one given to For.
type Cluster struct {
	// Port is the loopback TCP port the server listens on.
	Port int

	t testing.TB
	*cluster
}

// cluster is what every binding of a Cluster shares.
type cluster struct {
	bin  string // directory of initdb, postgres and pg_ctl
	dir  string // the cluster's directory: data/ and the unix socket
	cred *syscall.Credential
	srv  *server     // nil: not running
	logs []*logLines // of every run, oldest first
}

// server is one run of postgres.
type server struct {
	cmd    *exec.Cmd
	exited chan struct{}
	log    *logLines
}

// New runs initdb for a cluster that is not started yet. The server, if
// running, is stopped when t ends.
func New(t testing.TB) *Cluster {
	t.Helper()
	bin, err := findBinaries()
	if err != nil {
		skipOrFail(t, "no PostgreSQL server: %v", err)
	}
	c := &Cluster{t: t, cluster: &cluster{bin: bin, dir: t.TempDir()}}
	if os.Geteuid() == 0 {
		// PostgreSQL refuses to run as root.
		u, err := user.Lookup("postgres")
		if err != nil {
			skipOrFail(t, "running as root and no postgres user to run PostgreSQL as: %v", err)
		}
		uid, _ := strconv.ParseUint(u.Uid, 10, 32)
		gid, _ := strconv.ParseUint(u.Gid, 10, 32)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}
		// The test's temporary directories are root's, mode 0700: let the
		// user through the parent and own the cluster's directory.
		must(t, os.Chmod(filepath.Dir(c.dir), 0o711))
		must(t, os.Chown(c.dir, int(uid), int(gid)))
	}
	c.Port = freePort(t)
	// Registered after TempDir, so it runs before the directory is removed.
	t.Cleanup(c.Stop)
	c.run("initdb", "-D", c.data(), "--no-sync", "--no-instructions", "-E", "UTF8", "--locale=C",
		"--auth-local=trust", "--auth-host=scram-sha-256")
	return c
}

// For returns the cluster bound to t, for a subtest: a failure in its
// methods then ends the subtest, from the subtest's goroutine, as FailNow
// requires. Both bindings share the server and its logs.
func (c *Cluster) For(t testing.TB) *Cluster {
	return &Cluster{Port: c.Port, t: t, cluster: c.cluster}
}

// findBinaries returns the directory holding initdb, postgres and pg_ctl:
// Debian's /usr/lib/postgresql/<version>/bin (newest first), else PATH.
func findBinaries() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return version(b) - version(a) })
	if p, err := exec.LookPath("initdb"); err == nil {
		dirs = append(dirs, filepath.Dir(p))
	}
	for _, d := range dirs {
		if isExecutable(filepath.Join(d, "initdb")) && isExecutable(filepath.Join(d, "postgres")) && isExecutable(filepath.Join(d, "pg_ctl")) {
			return d, nil
		}
	}
	return "", fmt.Errorf("initdb, postgres and pg_ctl not found in /usr/lib/postgresql/*/bin or PATH")
}

func version(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

func skipOrFail(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format+" (CI=true: PostgreSQL is required here, not skipped)", args...)
	}
	t.Skipf(format, args...)
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// freePort returns a loopback port that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", Host+":0")
	must(t, err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func (c *Cluster) data() string { return filepath.Join(c.dir, "data") }

// command makes a command of the cluster's binaries, run as its user and
// killed when ctx ends.
func (c *Cluster) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(c.bin, name), args...)
	cmd.Dir = c.dir
	cmd.Env = []string{"LC_ALL=C", "PATH=" + os.Getenv("PATH")}
	// Pdeathsig: a test binary killed by its timeout takes the server along.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred, Pdeathsig: syscall.SIGKILL}
	return cmd
}

// run runs a binary to its end, failing the test with its output if it
// fails, or kills it if it has not ended in startTimeout.
func (c *Cluster) run(name string, args ...string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	cmd := c.command(ctx, name, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			c.t.Fatalf("%s did not finish in %v\n%s", name, startTimeout, out.String())
		}
		c.t.Fatalf("%s: %v\n%s", name, err, out.String())
	}
}

// WriteFile writes a file into the data directory, owned by the server's
// user, mode 0600: a certificate or a key, say.
func (c *Cluster) WriteFile(name string, content []byte) {
	c.t.Helper()
	path := filepath.Join(c.data(), name)
	must(c.t, os.WriteFile(path, content, 0o600))
	if c.cred != nil {
		must(c.t, os.Chown(path, int(c.cred.Uid), int(c.cred.Gid)))
	}
}

// Start starts the server with settings ("name=value", as postgres -c takes
// them), in the background, and returns at once: whether and when it
// answers is for the test to find out. It runs until Stop or the end of the
// test of New, past the subtest that started it.
func (c *Cluster) Start(settings ...string) {
	c.t.Helper()
	if c.srv != nil {
		c.t.Fatal("pgtest: Start while running")
	}
	args := []string{"-D", c.data(), "-k", c.dir, "-h", Host, "-p", strconv.Itoa(c.Port),
		"-c", "logging_collector=off", "-c", "fsync=off"}
	for _, s := range settings {
		args = append(args, "-c", s)
	}
	cmd := c.command(context.Background(), "postgres", args...)
	log := &logLines{}
	cmd.Stdout, cmd.Stderr = log, log
	cmd.WaitDelay = startTimeout
	must(c.t, cmd.Start())
	srv := &server{cmd: cmd, exited: make(chan struct{}), log: log}
	go func() {
		_ = cmd.Wait()
		close(srv.exited)
	}()
	c.srv = srv
	c.logs = append(c.logs, log)
}

// StartStandby starts the server as a standby with no primary and hot
// standby off: it stays in recovery and answers every connection with
// SQLSTATE 57P03 ("the database system is not accepting connections")
// until Promote.
func (c *Cluster) StartStandby() {
	c.t.Helper()
	c.WriteFile("standby.signal", nil)
	c.Start("hot_standby=off")
}

// Promote ends a standby's recovery and waits until it is done: the server
// then accepts connections.
func (c *Cluster) Promote() {
	c.t.Helper()
	c.run("pg_ctl", "promote", "-D", c.data(), "-w", "-t", strconv.Itoa(int(startTimeout.Seconds())))
}

// Stop stops the server (a fast shutdown) and waits until it has exited.
// It does nothing when the server is not running.
func (c *Cluster) Stop() {
	c.t.Helper()
	srv := c.srv
	if srv == nil {
		return
	}
	c.srv = nil
	_ = srv.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-srv.exited:
	case <-time.After(startTimeout):
		_ = srv.cmd.Process.Kill()
		<-srv.exited
		c.t.Errorf("postgres did not stop in %v; killed\n%s", startTimeout, srv.log)
	}
}

// WaitLog waits until the running server logs a line containing s, and
// fails the test if the server exits first.
func (c *Cluster) WaitLog(s string) {
	c.t.Helper()
	srv := c.srv
	if srv == nil {
		c.t.Fatal("pgtest: WaitLog while not running")
	}
	timeout := time.NewTimer(startTimeout)
	defer timeout.Stop()
	for {
		changed, found := srv.log.find(s)
		if found {
			return
		}
		select {
		case <-changed:
		case <-srv.exited:
			if _, found := srv.log.find(s); !found {
				c.t.Fatalf("postgres exited before logging %q:\n%s", s, srv.log)
			}
			return
		case <-timeout.C:
			c.t.Fatalf("postgres did not log %q in %v:\n%s", s, startTimeout, srv.log)
		}
	}
}

// Log returns what every run of the server has logged.
func (c *Cluster) Log() string {
	var all strings.Builder
	for _, l := range c.logs {
		all.WriteString(l.String())
	}
	return all.String()
}

// logLines collects a server's output and tells waiters when it grows.
type logLines struct {
	mu      sync.Mutex
	buf     strings.Builder
	changed chan struct{} // closed when buf grows, then replaced
}

// Write takes what the server logs.
func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	if l.changed != nil {
		close(l.changed)
		l.changed = nil
	}
	return len(p), nil
}

// find reports whether the log holds s, and a channel closed when it grows.
func (l *logLines) find(s string) (<-chan struct{}, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if strings.Contains(l.buf.String(), s) {
		return nil, true
	}
	if l.changed == nil {
		l.changed = make(chan struct{})
	}
	return l.changed, false
}

// String returns everything logged so far.
func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
