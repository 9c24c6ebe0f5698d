package dbcloudtest

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"
)

// Faults reach the VPC and peering operations as they reach the others,
// matched by method and path: for each create and delete, a 503 and a
// reset leave the state as it was, a reset after handling makes the
// change and loses only the answer, and a held request its client gives
// up on never reaches the model.
func TestNetworkFaults(t *testing.T) {
	vpcBody := `{"name": "net", "cidr": "10.0.0.0/16", "region_code": "us-east-1"}`
	peerBody := `{"peer_account_id": "123456789012", "peer_region_code": "us-west-2", "peer_vpc_id": "vpc-0abc"}`
	type setup struct {
		f            *fake
		vpc, peering string
	}
	// vpcs and peerings count what the model holds, also once the server
	// is closed.
	vpcs := func(s setup) (n int) {
		_ = s.f.model.Inspect(func(time.Time) error {
			n = len(s.f.model.VPCs(s.f.Proj))
			return nil
		})
		return n
	}
	peerings := func(s setup) (n int) {
		_ = s.f.model.Inspect(func(now time.Time) error {
			if v, err := s.f.model.FindVPC(s.f.Proj, s.vpc); err == nil {
				n = len(v.Peerings(now))
			}
			return nil
		})
		return n
	}
	for _, op := range []struct {
		name, method, pattern string
		path, body            func(s setup) string
		want                  func(s setup) int // VPCs or peerings once the change is made
		held                  func(s setup) int // the same, now
	}{
		{name: "createVPC", method: "POST", pattern: "/projects/*/vpcs",
			path: func(s setup) string { return s.f.VPCsPath() }, body: func(setup) string { return vpcBody },
			want: func(setup) int { return 2 }, held: vpcs},
		{name: "deleteVPC", method: "DELETE", pattern: "/projects/*/vpcs/*",
			path: func(s setup) string { return s.f.VPCsPath() + "/" + s.vpc }, body: func(setup) string { return "" },
			want: func(setup) int { return 0 }, held: vpcs},
		{name: "createVPCPeering", method: "POST", pattern: "/projects/*/vpcs/*/peerings",
			path: func(s setup) string { return s.f.VPCsPath() + "/" + s.vpc + "/peerings" }, body: func(setup) string { return peerBody },
			want: func(setup) int { return 2 }, held: peerings},
		{name: "deleteVPCPeering", method: "DELETE", pattern: "/projects/*/vpcs/*/peerings/*",
			path: func(s setup) string { return s.f.VPCsPath() + "/" + s.vpc + "/peerings/" + s.peering }, body: func(setup) string { return "" },
			want: func(setup) int { return 0 }, held: peerings},
	} {
		for _, fc := range []struct {
			name  string
			fault Fault
			acted bool
		}{
			{"503", Fault{Status: 503}, false},
			{"reset", Fault{Drop: true}, false},
			{"lost answer", Fault{Drop: true, AfterHandling: true}, true},
			{"504 after acting", Fault{Status: 504, AfterHandling: true}, true},
			{"held", Fault{Delay: time.Minute}, false},
		} {
			t.Run(op.name+"/"+fc.name, func(t *testing.T) {
				f := newFake(t, config{})
				s := setup{f: f, vpc: f.VPC()}
				s.peering = f.Send("POST", f.VPCsPath()+"/"+s.vpc+"/peerings", peerBody).Must(t, 201).Obj(t)["id"].(string)
				before := op.held(s)
				f.api.resetCounts()
				fault := fc.fault
				fault.Method, fault.Path = op.method, op.pattern
				f.api.injectFault(fault)
				ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
				defer cancel()
				res, err := f.RawDo(ctx, op.method, op.path(s), op.body(s))
				switch {
				case fc.fault.Drop && err == nil:
					t.Fatal("a dropped request succeeded")
				case fc.fault.Delay > 0:
					if !errors.Is(err, context.DeadlineExceeded) {
						t.Fatalf("a held request: %v", err)
					}
					// Close waits for the handler: quick, since the request
					// ended with its client, before the model saw it.
					start := time.Now()
					f.Srv.Close()
					if d := time.Since(start); d > 5*time.Second {
						t.Errorf("closing took %v: the held request outlived its client", d)
					}
				case fc.fault.Status != 0:
					if err != nil {
						t.Fatal(err)
					}
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != fc.fault.Status {
						t.Fatalf("status %d, want the fault's %d", res.StatusCode, fc.fault.Status)
					}
				}
				want := before
				if fc.acted {
					want = op.want(s)
				}
				if got := op.held(s); got != want {
					t.Errorf("%d held after the fault, want %d", got, want)
				}
				if n := f.api.count(op.method, op.pattern); n != 1 {
					t.Errorf("Count = %d, want 1", n)
				}
			})
		}
	}
}

// Each of the 14 further operations is matched by a fault on its method
// and path, with '*' for its ids, as every other operation is, and by no
// fault on another operation's path.
func TestFaultsMatchEveryFurtherOperation(t *testing.T) {
	f := newFake(t, config{})
	svc := f.Ready(nil)
	vpc := f.VPC()
	v := f.VPCsPath() + "/" + vpc
	peering := f.Send("POST", v+"/peerings", `{"peer_account_id": "a", "peer_region_code": "r", "peer_vpc_id": "v"}`).Must(t, 201).Obj(t)["id"].(string)
	for _, op := range []struct{ name, method, path, pattern string }{
		{"getAuthInfo", "GET", "/auth/info", "/auth/info"},
		{"getProjects", "GET", "/projects", "/projects"},
		{"renameService", "POST", f.SvcPath(svc) + "/rename", "/projects/*/services/*/rename"},
		{"getVPCs", "GET", f.VPCsPath(), "/projects/*/vpcs"},
		{"createVPC", "POST", f.VPCsPath(), "/projects/*/vpcs"},
		{"getVPC", "GET", v, "/projects/*/vpcs/*"},
		{"deleteVPC", "DELETE", v, "/projects/*/vpcs/*"},
		{"renameVPC", "POST", v + "/rename", "/projects/*/vpcs/*/rename"},
		{"getVPCPeerings", "GET", v + "/peerings", "/projects/*/vpcs/*/peerings"},
		{"createVPCPeering", "POST", v + "/peerings", "/projects/*/vpcs/*/peerings"},
		{"getVPCPeering", "GET", v + "/peerings/" + peering, "/projects/*/vpcs/*/peerings/*"},
		{"deleteVPCPeering", "DELETE", v + "/peerings/" + peering, "/projects/*/vpcs/*/peerings/*"},
		{"getServiceMetricsAvailableSeries", "GET", f.SvcPath(svc) + "/metrics/available-series", "/projects/*/services/*/metrics/available-series"},
		{"getServiceMetricsSeries", "POST", f.SvcPath(svc) + "/metrics/series", "/projects/*/services/*/metrics/series"},
	} {
		f.api.injectFault(Fault{Method: op.method, Path: op.pattern, Status: 418})
		f.Send("GET", "/projects/"+f.Proj+"/services", nil).Must(t, 200) // another path: untouched
		if r := f.Send(op.method, op.path, "{}"); r.Status != 418 {
			t.Errorf("%s: %d, want the fault's 418", op.name, r.Status)
		}
	}
	f.Send("GET", v+"/peerings/"+peering, nil).Must(t, 200) // the faulted deletes did nothing
}
