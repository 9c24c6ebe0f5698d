package dbcloudotel_test

import (
	"sync"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"go.opentelemetry.io/otel/trace"
)

// A wait alone polls under its caller's context: each of its reads is a
// child of the caller's span.
func TestLoneWaitReadsAreChildrenOfTheCaller(t *testing.T) {
	h := newHarness(t)
	srv, c, svc := e2e(t, h, dbcloud.WithDefaultPollInterval(time.Millisecond, time.Millisecond))
	ctx, deploy := h.tp.Tracer("test").Start(t.Context(), "deploy")
	if _, err := c.Services.WaitForReady(ctx, srv.ProjectID, svc.ServiceID); err != nil {
		t.Fatal(err)
	}
	deploy.End()
	gets, _ := callSpans(t, h, "Services.Get")
	if len(gets) == 0 {
		t.Fatal("no Services.Get span")
	}
	for _, g := range gets {
		if g.Parent().SpanID() != deploy.SpanContext().SpanID() {
			t.Errorf("a read's parent is %v, want the caller's span %v", g.Parent().SpanID(), deploy.SpanContext().SpanID())
		}
	}
}

// Waits that share a poller share its reads: a shared read is linked to the
// span of every caller it serves.
func TestSharedReadIsLinkedToEveryWaitingCaller(t *testing.T) {
	h := newHarness(t)
	srv, c, a := e2e(t, h, dbcloud.WithDefaultPollInterval(time.Millisecond, time.Millisecond))
	b, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "b"})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{a.ServiceID, b.ServiceID} {
		if err := srv.SetStatus(id, dbcloud.StatusConfiguring); err != nil {
			t.Fatal(err)
		}
	}
	var (
		wg    sync.WaitGroup
		seen  sync.WaitGroup // each wait has seen its service once
		spans [2]trace.SpanContext
	)
	seen.Add(2)
	for i, id := range []string{a.ServiceID, b.ServiceID} {
		ctx, span := h.tp.Tracer("test").Start(t.Context(), "deploy "+id)
		spans[i] = span.SpanContext()
		var once sync.Once
		wg.Go(func() {
			defer span.End()
			_, err := c.Services.WaitForReady(ctx, srv.ProjectID, id, dbcloud.WithWaitTimeout(time.Minute),
				dbcloud.WithProgress(func(dbcloud.WaitProgress) { once.Do(seen.Done) }))
			if err != nil {
				t.Error(err)
			}
		})
	}
	seen.Wait() // both waits have joined: the reads from now on are shared
	for _, id := range []string{a.ServiceID, b.ServiceID} {
		if err := srv.SetStatus(id, dbcloud.StatusReady); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	lists, _ := callSpans(t, h, "Services.List")
	linked := 0
	for _, l := range lists {
		if v := value(l, "dbcloud.waits"); v.AsInt64() != 2 {
			continue
		}
		got := map[trace.SpanID]bool{}
		for _, link := range l.Links() {
			got[link.SpanContext.SpanID()] = true
		}
		if !got[spans[0].SpanID()] || !got[spans[1].SpanID()] || l.Parent().IsValid() {
			t.Errorf("a shared read links %v with parent %v, want both callers' spans and no parent", l.Links(), l.Parent())
		}
		linked++
	}
	if linked == 0 {
		t.Errorf("no shared read among %d Services.List spans", len(lists))
	}
}
