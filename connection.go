package dbcloud

import (
	"net"
	"strconv"
	"strings"
)

// Every service of the API has one database and one admin role, and accepts
// only TLS connections; a service's endpoint, its pooler's, a read replica
// set's and that set's pooler's all take the same role and database. These
// are the parts of a connection string that the API does not send.
const (
	Database  = "tsdb"      // the database of every service
	AdminRole = "tsdbadmin" // the role InitialPassword (or UpdatePassword) is for
	SSLMode   = "require"   // the TLS mode every endpoint requires
)

// String returns "host:port" (with brackets around an IPv6 host), or "" for
// a nil Endpoint, so that %v of a Service shows where it listens rather than
// a pointer.
func (e *Endpoint) String() string {
	if e == nil {
		return ""
	}
	if e.Port == 0 {
		return e.Host
	}
	return net.JoinHostPort(e.Host, strconv.Itoa(e.Port))
}

// ConnectionString returns the URL a PostgreSQL driver (libpq, pgx, psql)
// connects with, without a password:
//
//	postgresql://tsdbadmin@<host>:<port>/tsdb?sslmode=require
//
// It is safe to print and log. A nil Endpoint gives "" (a service without a
// pooler has no pooler endpoint; see Service.PoolerEndpoint).
func (e *Endpoint) ConnectionString() string {
	return e.connectionString("")
}

// ConnectionStringWithPassword returns ConnectionString's URL with the
// password escaped in it (any character reaches the driver intact), as a
// Secret that prints "[redacted]": hand string(result) to the driver. An
// empty password gives the URL without one; a nil Endpoint gives "".
func (e *Endpoint) ConnectionStringWithPassword(password Secret) Secret {
	return Secret(e.connectionString(string(password)))
}

func (e *Endpoint) connectionString(password string) string {
	if e == nil || e.Host == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString("postgresql://")
	b.WriteString(AdminRole)
	if password != "" {
		b.WriteByte(':')
		b.WriteString(escapeUserinfo(password))
	}
	b.WriteByte('@')
	b.WriteString(e.String())
	b.WriteString("/" + Database + "?sslmode=" + SSLMode)
	return b.String()
}

// escapeUserinfo percent-encodes every byte but the unreserved characters of
// RFC 3986. net/url leaves sub-delimiters such as + ; = & $ unescaped in the
// user information, which is valid but read differently by some drivers (a
// + as a space); escaping them too is understood by all.
func escapeUserinfo(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// PoolerEndpoint returns the endpoint of the connection pooler, or nil when
// the pooler is off or not reported; it is safe on a nil Service. Read
// svc.PoolerEndpoint().ConnectionString() without checking each level.
func (s *Service) PoolerEndpoint() *Endpoint {
	if s == nil {
		return nil
	}
	return s.ConnectionPooler.endpoint()
}

// PoolerEndpoint returns the endpoint of the replica set's connection
// pooler, or nil when the pooler is off or not reported; it is safe on a nil
// ReadReplicaSet.
func (r *ReadReplicaSet) PoolerEndpoint() *Endpoint {
	if r == nil {
		return nil
	}
	return r.ConnectionPooler.endpoint()
}

func (p *ConnectionPooler) endpoint() *Endpoint {
	if p == nil {
		return nil
	}
	return p.Endpoint
}

// Environment returns the service's environment tag, or "" when the API did
// not report one; it is safe on a nil Service.
func (s *Service) Environment() Environment {
	if s == nil || s.Metadata == nil {
		return ""
	}
	return s.Metadata.Environment
}

// Environment returns the replica set's environment tag, or "" when the API
// did not report one; it is safe on a nil ReadReplicaSet.
func (r *ReadReplicaSet) Environment() Environment {
	if r == nil || r.Metadata == nil {
		return ""
	}
	return r.Metadata.Environment
}

// Size returns the CPU (millicores) and memory (GB) of the service's first
// resource, or zeros when the API reported none; it is safe on a nil Service.
func (s *Service) Size() (cpuMillis, memoryGBs int) {
	if s == nil || len(s.Resources) == 0 || s.Resources[0].Spec == nil {
		return 0, 0
	}
	return s.Resources[0].Spec.CPUMillis, s.Resources[0].Spec.MemoryGBs
}

// ReplicaCount returns the number of HA replicas, 0 when the API did not
// report them; it is safe on a nil Service.
func (s *Service) ReplicaCount() int {
	if s == nil || s.HAReplicas == nil {
		return 0
	}
	return s.HAReplicas.ReplicaCount
}
