package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/wire"
	"github.com/google/go-cmp/cmp"
)

// The views are what a GET answers, for services of any project.
func TestServiceViews(t *testing.T) {
	f := newFake(t, Config{Model: model.Config{Step: time.Minute}, Projects: []string{"p1", "p2"}})
	first := f.Create(nil)
	f.Proj = "p2"
	second := f.Create(map[string]any{"name": "other"})

	for _, id := range []string{first, second} {
		v, ok := f.model.ServiceView(id)
		if !ok {
			t.Fatalf("ServiceJSON(%s) not found", id)
		}
		f.Proj = "p1"
		if id == second {
			f.Proj = "p2"
		}
		if diff := cmp.Diff(f.Get(id), decode(t, wire.Encode(v))); diff != "" {
			t.Errorf("ServiceJSON(%s) differs from GET (-get +view):\n%s", id, diff)
		}
	}
	var all []map[string]any
	if err := json.Unmarshal(wire.Encode(f.model.ServicesView()), &all); err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0]["service_id"] != second || all[1]["service_id"] != first {
		t.Errorf("ServicesJSON is not newest first: %v", all)
	}

	if _, ok := f.model.ServiceView("nope"); ok {
		t.Error("ServiceJSON of an unknown id")
	}
	// The helpers find a service by id alone, in any project.
	if err := f.model.SetStatus(second, "UNSTABLE"); err != nil {
		t.Errorf("SetStatus(%s): %v", second, err)
	}
	if err := f.model.SeedLogs("nope", 1); !errors.Is(err, model.ErrNotFound) {
		t.Errorf("SeedLogs of an unknown id: %v, want ErrNotFound", err)
	}
}

// decode decodes as send does, numbers as json.Number.
func decode(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// Deletions that complete at different times each take their service away
// at their own moment, also when the sweep of the first finds the second
// still pending, and a deletion that setStatus cancelled takes nothing.
func TestDeletionsCompleteOnTime(t *testing.T) {
	f := newFake(t, Config{Model: model.Config{Step: time.Minute}})
	a, b, c := f.Ready(nil), f.Ready(nil), f.Ready(nil)
	f.Send("DELETE", f.SvcPath(a), nil).Must(t, 202)
	f.Clock.Advance(30 * time.Second)
	f.Send("DELETE", f.SvcPath(b), nil).Must(t, 202)
	f.Send("DELETE", f.SvcPath(c), nil).Must(t, 202)
	if err := f.model.SetStatus(c, "UNSTABLE"); err != nil {
		t.Fatal(err)
	}

	f.Clock.Advance(30 * time.Second) // a's deletion is done, b's is not
	f.Send("GET", f.SvcPath(a), nil).Must(t, 404)
	f.WantStatus(b, "DELETING")
	f.Clock.Advance(30 * time.Second)
	f.Send("GET", f.SvcPath(b), nil).Must(t, 404)
	f.Clock.Advance(time.Hour)
	f.WantStatus(c, "UNSTABLE")
}
