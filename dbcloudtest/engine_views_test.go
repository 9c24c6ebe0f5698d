package dbcloudtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The views are what a GET answers, for services of any project.
func TestServiceViews(t *testing.T) {
	f := newFake(t, config{projects: []string{"p1", "p2"}, step: time.Minute})
	first := f.create(nil)
	f.proj = "p2"
	second := f.create(map[string]any{"name": "other"})

	for _, id := range []string{first, second} {
		body, ok := f.api.serviceView(id)
		if !ok {
			t.Fatalf("ServiceJSON(%s) not found", id)
		}
		f.proj = "p1"
		if id == second {
			f.proj = "p2"
		}
		if diff := cmp.Diff(f.get(id), decode(t, body)); diff != "" {
			t.Errorf("ServiceJSON(%s) differs from GET (-get +view):\n%s", id, diff)
		}
	}
	var all []map[string]any
	if err := json.Unmarshal(f.api.servicesView(), &all); err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0]["service_id"] != second || all[1]["service_id"] != first {
		t.Errorf("ServicesJSON is not newest first: %v", all)
	}

	if _, ok := f.api.serviceView("nope"); ok {
		t.Error("ServiceJSON of an unknown id")
	}
	// The helpers find a service by id alone, in any project.
	if err := f.api.setStatus(second, "UNSTABLE"); err != nil {
		t.Errorf("SetStatus(%s): %v", second, err)
	}
	if err := f.api.seedLogs("nope", 1); !errors.Is(err, errNotFound) {
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
	f := newFake(t, config{step: time.Minute})
	a, b, c := f.ready(nil), f.ready(nil), f.ready(nil)
	f.send("DELETE", f.svcPath(a), nil).must(t, 202)
	f.clock.advance(30 * time.Second)
	f.send("DELETE", f.svcPath(b), nil).must(t, 202)
	f.send("DELETE", f.svcPath(c), nil).must(t, 202)
	if err := f.api.setStatus(c, "UNSTABLE"); err != nil {
		t.Fatal(err)
	}

	f.clock.advance(30 * time.Second) // a's deletion is done, b's is not
	f.send("GET", f.svcPath(a), nil).must(t, 404)
	f.wantStatus(b, "DELETING")
	f.clock.advance(30 * time.Second)
	f.send("GET", f.svcPath(b), nil).must(t, 404)
	f.clock.advance(time.Hour)
	f.wantStatus(c, "UNSTABLE")
}

// An id is never handed out twice, not even after its service is gone.
func TestIDsAreNotReused(t *testing.T) {
	f := newFake(t, config{})
	seen := map[string]bool{}
	for range 50 {
		id := f.create(nil)
		if seen[id] {
			t.Fatalf("id %s handed out twice", id)
		}
		seen[id] = true
		f.send("DELETE", f.svcPath(id), nil).must(t, 202)
	}
	if !f.api.usedIDs[f.create(nil)] {
		t.Error("a new id is not recorded as used")
	}
}
