package dbcloud_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

// recorder is a slog handler that keeps every record's level and attributes.
type recorder struct {
	mu      sync.Mutex
	records []map[string]any
}

func (r *recorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *recorder) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r *recorder) WithGroup(string) slog.Handler            { return r }
func (r *recorder) Handle(_ context.Context, rec slog.Record) error {
	m := map[string]any{"level": rec.Level.String(), "msg": rec.Message}
	rec.Attrs(func(a slog.Attr) bool {
		m[a.Key] = a.Value.Any()
		return true
	})
	r.mu.Lock()
	defer r.mu.Unlock()
	r.records = append(r.records, m)
	return nil
}

func TestLoggerRecordsEachAttempt(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	c, mt := mockClient(t, dbcloud.WithLogger(slog.New(rec)))
	mt.RegisterResponder("GET", serviceURL, httpmock.NewStringResponder(503, "").
		HeaderSet(map[string][]string{"X-Request-Id": {"req-1"}}).
		Then(httpmock.NewStringResponder(200, serviceJSON)))
	if _, err := c.Services.Get(t.Context(), "p1", "s1"); err != nil {
		t.Fatal(err)
	}
	if len(rec.records) != 2 {
		t.Fatalf("got %d records, want one per attempt: %v", len(rec.records), rec.records)
	}
	for _, r := range rec.records {
		if _, ok := r["duration"]; !ok {
			t.Errorf("record without duration: %v", r)
		}
		delete(r, "duration")
	}
	want := []map[string]any{
		{"level": "WARN", "msg": "dbcloud: http attempt", "method": "GET", "path": "/projects/p1/services/s1", "attempt": int64(1), "status": int64(503), "request_id": "req-1", "retry": true},
		{"level": "DEBUG", "msg": "dbcloud: http attempt", "method": "GET", "path": "/projects/p1/services/s1", "attempt": int64(2), "status": int64(200), "retry": false},
	}
	if diff := cmp.Diff(want, rec.records); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

// A retry's 404 that proves an earlier attempt did the work is logged at
// info level, so an operator sees why the call succeeded after an error
// answer.
func TestLoggerRecordsAReconciledRetry(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	c, mt := mockClient(t, dbcloud.WithLogger(slog.New(rec)))
	mt.RegisterResponder("DELETE", serviceURL, httpmock.NewErrorResponder(errReset).
		Then(httpmock.NewStringResponder(404, `{"code":"NOT_FOUND"}`)))
	if err := c.Services.Delete(t.Context(), "p1", "s1"); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	for _, r := range rec.records {
		if r["level"] == "INFO" {
			got = append(got, r)
		}
	}
	want := []map[string]any{{"level": "INFO", "msg": "dbcloud: an earlier attempt took effect",
		"method": "DELETE", "path": "/projects/p1/services/s1", "attempts": int64(2), "status": int64(404)}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("info records (-want +got):\n%s", diff)
	}
}
