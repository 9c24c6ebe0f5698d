package dbcloud_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/jarcoal/httpmock"
)

// svcAs is a Service body with a status and extra fields.
func svcAs(status, extra string) string {
	return fmt.Sprintf(`{"service_id":"s1","project_id":"p1","name":"db","region_code":"r","service_type":"POSTGRES",`+
		`"status":%q,"created":"2026-01-02T03:04:05Z","resources":[{"id":"r1","spec":{"cpu_millis":%s}}]%s}`, status, `2000,"memory_gbs":8`, extra)
}

// setsAs is a list of replica sets holding rs-1 with a status and extra fields.
func setsAs(status, extra string) string {
	return `[{"id":"rs-1","name":"r","status":"` + status + `","nodes":1,"cpu_millis":2000,"memory_gbs":8` + extra + `}]`
}

// reconcileCase is an operation whose retry may be answered 404 or 409
// because an earlier attempt did the work, and the reads that prove it did
// or did not.
type reconcileCase struct {
	name          string
	method, url   string
	call          func(context.Context, *dbcloud.Client) error
	answer        int // what the retry is answered
	readURL       string
	done, notDone string // bodies of the read; "" = the read is not needed
}

func reconcileCases() []reconcileCase {
	resize := &dbcloud.ResizeRequest{CPUMillis: 2000, MemoryGBs: 8}
	svcCall := func(f func(context.Context, *dbcloud.Client) (*dbcloud.Service, error)) func(context.Context, *dbcloud.Client) error {
		return func(ctx context.Context, c *dbcloud.Client) error {
			svc, err := f(ctx, c)
			if err == nil && (svc == nil || svc.ServiceID != "s1") {
				return fmt.Errorf("success without the service: %+v", svc)
			}
			return err
		}
	}
	setURL := replicasURL + "/rs-1"
	return []reconcileCase{
		{"delete 404", "DELETE", serviceURL, func(ctx context.Context, c *dbcloud.Client) error { return c.Services.Delete(ctx, "p1", "s1") },
			404, "", "", ""},
		{"delete 409 DELETING", "DELETE", serviceURL, func(ctx context.Context, c *dbcloud.Client) error { return c.Services.Delete(ctx, "p1", "s1") },
			409, serviceURL, svcAs("DELETING", ""), svcAs("READY", "")},
		{"delete 409 DELETED", "DELETE", serviceURL, func(ctx context.Context, c *dbcloud.Client) error { return c.Services.Delete(ctx, "p1", "s1") },
			409, serviceURL, svcAs("DELETED", ""), svcAs("UPGRADING", "")},
		{"start 409 RESUMING", "POST", startURL, svcCall(func(ctx context.Context, c *dbcloud.Client) (*dbcloud.Service, error) {
			return c.Services.Start(ctx, "p1", "s1")
		}),
			409, serviceURL, svcAs("RESUMING", ""), svcAs("PAUSED", "")},
		{"start 409 READY", "POST", startURL, svcCall(func(ctx context.Context, c *dbcloud.Client) (*dbcloud.Service, error) {
			return c.Services.Start(ctx, "p1", "s1")
		}),
			409, serviceURL, svcAs("READY", ""), svcAs("PAUSING", "")},
		{"stop 409 PAUSING", "POST", serviceURL + "/stop", svcCall(func(ctx context.Context, c *dbcloud.Client) (*dbcloud.Service, error) {
			return c.Services.Stop(ctx, "p1", "s1")
		}),
			409, serviceURL, svcAs("PAUSING", ""), svcAs("READY", "")},
		{"stop 409 PAUSED", "POST", serviceURL + "/stop", svcCall(func(ctx context.Context, c *dbcloud.Client) (*dbcloud.Service, error) {
			return c.Services.Stop(ctx, "p1", "s1")
		}),
			409, serviceURL, svcAs("PAUSED", ""), svcAs("RESUMING", "")},
		{"resize 409 CONFIGURING", "POST", serviceURL + "/resize", svcCall(func(ctx context.Context, c *dbcloud.Client) (*dbcloud.Service, error) {
			return c.Services.Resize(ctx, "p1", "s1", resize)
		}), 409, serviceURL, svcAs("CONFIGURING", ""), strings.Replace(svcAs("CONFIGURING", ""), "2000", "1000", 1)},
		{"resize 409 READY", "POST", serviceURL + "/resize", svcCall(func(ctx context.Context, c *dbcloud.Client) (*dbcloud.Service, error) {
			return c.Services.Resize(ctx, "p1", "s1", resize)
		}), 409, serviceURL, svcAs("READY", ""), svcAs("PAUSED", "")},
		{"setHA 409 CONFIGURING", "POST", serviceURL + "/setHA", svcCall(func(ctx context.Context, c *dbcloud.Client) (*dbcloud.Service, error) {
			return c.Services.SetHA(ctx, "p1", "s1", &dbcloud.SetHARequest{ReplicaCount: new(2)})
		}), 409, serviceURL, svcAs("CONFIGURING", `,"ha_replicas":{"replica_count":2,"sync_replica_count":0}`),
			svcAs("CONFIGURING", `,"ha_replicas":{"replica_count":1,"sync_replica_count":0}`)},
		{"setHA 409 READY", "POST", serviceURL + "/setHA", svcCall(func(ctx context.Context, c *dbcloud.Client) (*dbcloud.Service, error) {
			return c.Services.SetHA(ctx, "p1", "s1", &dbcloud.SetHARequest{SyncReplicaCount: new(1)})
		}), 409, serviceURL, svcAs("READY", `,"ha_replicas":{"replica_count":2,"sync_replica_count":1}`),
			svcAs("DELETING", `,"ha_replicas":{"replica_count":2,"sync_replica_count":1}`)},
		{"enablePooler 409", "POST", serviceURL + "/enablePooler", func(ctx context.Context, c *dbcloud.Client) error { return c.Services.EnablePooler(ctx, "p1", "s1") },
			409, serviceURL, svcAs("READY", `,"connection_pooler":{"endpoint":{"host":"h","port":6432}}`), svcAs("READY", "")},
		{"disablePooler 409", "POST", serviceURL + "/disablePooler", func(ctx context.Context, c *dbcloud.Client) error { return c.Services.DisablePooler(ctx, "p1", "s1") },
			409, serviceURL, svcAs("READY", ""), svcAs("READY", `,"connection_pooler":{"endpoint":{"host":"h","port":6432}}`)},
		{"attachToVPC 409", "POST", serviceURL + "/attachToVPC", func(ctx context.Context, c *dbcloud.Client) error {
			return c.Services.AttachToVPC(ctx, "p1", "s1", "123")
		},
			409, serviceURL, svcAs("READY", `,"vpc_endpoint":{"host":"h","port":5432,"vpc_id":"123"}`), svcAs("READY", `,"vpc_endpoint":{"host":"h","port":5432,"vpc_id":"456"}`)},
		{"detachFromVPC 409", "POST", serviceURL + "/detachFromVPC", func(ctx context.Context, c *dbcloud.Client) error {
			return c.Services.DetachFromVPC(ctx, "p1", "s1", "123")
		},
			409, serviceURL, svcAs("READY", ""), svcAs("READY", `,"vpc_endpoint":{"host":"h","port":5432,"vpc_id":"123"}`)},
		{"replica set delete 404", "DELETE", setURL, func(ctx context.Context, c *dbcloud.Client) error {
			return c.ReplicaSets.Delete(ctx, "p1", "s1", "rs-1")
		},
			404, "", "", ""},
		{"replica set delete 409 deleting", "DELETE", setURL, func(ctx context.Context, c *dbcloud.Client) error {
			return c.ReplicaSets.Delete(ctx, "p1", "s1", "rs-1")
		},
			409, replicasURL, setsAs("deleting", ""), setsAs("error", "")},
		{"replica set delete 409 gone", "DELETE", setURL, func(ctx context.Context, c *dbcloud.Client) error {
			return c.ReplicaSets.Delete(ctx, "p1", "s1", "rs-1")
		},
			409, replicasURL, "[]", setsAs("active", "")},
		{"replica set enablePooler 409", "POST", setURL + "/enablePooler", func(ctx context.Context, c *dbcloud.Client) error {
			return c.ReplicaSets.EnablePooler(ctx, "p1", "s1", "rs-1")
		},
			409, replicasURL, setsAs("active", `,"connection_pooler":{"endpoint":{"host":"h","port":6432}}`), setsAs("active", "")},
		{"replica set disablePooler 409", "POST", setURL + "/disablePooler", func(ctx context.Context, c *dbcloud.Client) error {
			return c.ReplicaSets.DisablePooler(ctx, "p1", "s1", "rs-1")
		},
			409, replicasURL, setsAs("active", ""), setsAs("active", `,"connection_pooler":{"endpoint":{"host":"h","port":6432}}`)},
		{"replica set resize 409", "POST", setURL + "/resize", func(ctx context.Context, c *dbcloud.Client) error {
			return c.ReplicaSets.Resize(ctx, "p1", "s1", "rs-1", resize)
		}, 409, replicasURL, setsAs("resizing", ""), strings.Replace(setsAs("resizing", ""), "2000", "1000", 1)},
	}
}

// A retry answered 404 or 409 after an earlier attempt may have acted is a
// success when a read shows the earlier attempt did the work; otherwise, and
// whenever no earlier attempt may have acted, the answer is returned as it is.
func TestRetryAnswerReconciled(t *testing.T) {
	t.Parallel()
	answer := func(code int) httpmock.Responder {
		return httpmock.NewStringResponder(code, `{"code":"X","message":"`+http.StatusText(code)+`"}`)
	}
	for _, tc := range reconcileCases() {
		for _, v := range []struct {
			name      string
			first     httpmock.Responder // then tc.answer
			read      string             // what the read returns
			reconcile bool
			reads     bool // whether the answer needs a read to be judged
		}{
			{"reset after sending, work done", httpmock.NewErrorResponder(errReset), tc.done, true, true},
			{"503, work done", answer(503), tc.done, true, true},
			{"reset after sending, work not done", httpmock.NewErrorResponder(errReset), tc.notDone, false, true},
			{"first attempt's own answer", nil, tc.done, false, false},
			{"429 first: it did not act", answer(429), tc.done, false, false},
			{"refused first: it was not sent", httpmock.NewErrorResponder(errRefused), tc.done, false, false},
		} {
			if tc.readURL == "" && !v.reconcile && v.reads {
				continue // a retry's 404 to a delete needs no read, and always means done
			}
			t.Run(tc.name+"/"+v.name, func(t *testing.T) {
				t.Parallel()
				c, mt := mockClient(t)
				op := answer(tc.answer)
				if v.first != nil {
					op = v.first.Then(op)
				}
				mt.RegisterResponder(tc.method, tc.url, op)
				if tc.readURL != "" {
					mt.RegisterResponder("GET", tc.readURL, httpmock.NewStringResponder(200, v.read))
				}
				err := tc.call(t.Context(), c)
				if v.reconcile && err != nil {
					t.Fatalf("err = %v, want success: the earlier attempt did the work", err)
				}
				var apiErr *dbcloud.APIError
				if !v.reconcile && (!errors.As(err, &apiErr) || apiErr.StatusCode != tc.answer) {
					t.Fatalf("err = %v, want the %d answer returned as it is", err, tc.answer)
				}
				want := 0
				if v.reads && tc.readURL != "" {
					want = 1
				}
				if reads := mt.GetCallCountInfo()["GET "+tc.readURL]; reads != want {
					t.Errorf("reads = %d, want %d", reads, want)
				}
			})
		}
	}
}

// A retry's 409 after an earlier attempt may have acted, whose check cannot
// read the resource: the answer is still returned (errors.As finds the
// 409), and the error says that the earlier attempt may have done the work,
// with the read's failure, so that the caller does not take it for a plain
// refusal.
func TestRetryAnswerUnchecked(t *testing.T) {
	t.Parallel()
	for _, tc := range reconcileCases() {
		if tc.readURL == "" {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, mt := mockClient(t)
			mt.RegisterResponder(tc.method, tc.url, httpmock.NewErrorResponder(errReset).Then(
				httpmock.NewStringResponder(tc.answer, `{"code":"X","message":"conflict"}`)))
			mt.RegisterResponder("GET", tc.readURL, httpmock.NewStringResponder(403, `{"code":"FORBIDDEN","message":"no read"}`))
			err := tc.call(t.Context(), c)
			if apiErr, ok := errors.AsType[*dbcloud.APIError](err); !ok || apiErr.StatusCode != tc.answer {
				t.Fatalf("err = %v, want the %d answer reachable", err, tc.answer)
			}
			if !errors.Is(err, dbcloud.ErrForbidden) || !strings.Contains(err.Error(), "may have done the work") {
				t.Errorf("err = %v, want the read's 403 and the earlier attempt named", err)
			}
		})
	}
}
