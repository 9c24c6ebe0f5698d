package dbcloud

import (
	"strconv"
	"strings"
)

// String describes the service on one line, for logs and %v / %+v: its id,
// name, type, status, region, size, HA replicas, environment, endpoints and
// parent, each only when known. It never contains the password: a set
// InitialPassword shows as "password=[redacted]", so a reader knows one is
// there to keep.
//
//	Service{id=e4k2x name=orders type=POSTGRES status=READY region=us-east-1 size=2000m/8GB ha=1 env=PROD endpoint=db.example.com:5432 pooler=pool.example.com:6432}
func (s Service) String() string {
	var b fieldWriter
	b.open("Service")
	b.field("id", s.ServiceID)
	b.field("name", s.Name)
	b.field("type", string(s.ServiceType))
	b.field("status", string(s.Status))
	b.field("region", s.RegionCode)
	b.field("size", sizeString(s.Size()))
	if s.HAReplicas != nil {
		ha := strconv.Itoa(s.HAReplicas.ReplicaCount)
		if s.HAReplicas.SyncReplicaCount != 0 {
			ha += "(sync " + strconv.Itoa(s.HAReplicas.SyncReplicaCount) + ")"
		}
		b.field("ha", ha)
	}
	b.field("env", string(s.Environment()))
	b.field("endpoint", s.Endpoint.String())
	b.field("pooler", s.PoolerEndpoint().String())
	if s.VPCEndpoint != nil {
		b.field("vpc", s.VPCEndpoint.VPCID)
	}
	if s.ForkedFrom != nil {
		b.field("forked_from", s.ForkedFrom.ServiceID)
	}
	if n := len(s.ReadReplicaSets); n > 0 {
		b.field("replica_sets", strconv.Itoa(n))
	}
	if s.InitialPassword != "" {
		b.field("password", redacted)
	}
	return b.close()
}

// String describes the replica set on one line, for logs and %v / %+v.
//
//	ReadReplicaSet{id=rs-1 name=reports status=active nodes=2 size=1000m/4GB env=DEV endpoint=rs.example.com:5432}
func (r ReadReplicaSet) String() string {
	var b fieldWriter
	b.open("ReadReplicaSet")
	b.field("id", r.ID)
	b.field("name", r.Name)
	b.field("status", string(r.Status))
	if r.Nodes != 0 {
		b.field("nodes", strconv.Itoa(r.Nodes))
	}
	b.field("size", sizeString(r.CPUMillis, r.MemoryGBs))
	b.field("env", string(r.Environment()))
	b.field("endpoint", r.Endpoint.String())
	b.field("pooler", r.PoolerEndpoint().String())
	return b.close()
}

// sizeString is a size as String shows it ("2000m/8GB"), or "" when it is
// not known.
func sizeString(cpuMillis, memoryGBs int) string {
	if cpuMillis == 0 && memoryGBs == 0 {
		return ""
	}
	return strconv.Itoa(cpuMillis) + "m/" + strconv.Itoa(memoryGBs) + "GB"
}

// fieldWriter writes "Name{k=v k=v}", leaving out empty values.
type fieldWriter struct {
	b     strings.Builder
	first bool
}

func (w *fieldWriter) open(name string) {
	w.b.WriteString(name)
	w.b.WriteByte('{')
	w.first = true
}

func (w *fieldWriter) field(key, value string) {
	if value == "" {
		return
	}
	if !w.first {
		w.b.WriteByte(' ')
	}
	w.first = false
	w.b.WriteString(key)
	w.b.WriteByte('=')
	if strings.ContainsAny(value, " \t\n\"{}=") {
		value = strconv.Quote(value)
	}
	w.b.WriteString(value)
}

func (w *fieldWriter) close() string {
	w.b.WriteByte('}')
	return w.b.String()
}
