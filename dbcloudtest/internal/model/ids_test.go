package model

import (
	"testing"
	"time"
)

// An id is never handed out twice, not even after its service is gone.
func TestIDsAreNotReused(t *testing.T) {
	m := New(Config{})
	create := func() (id string) {
		t.Helper()
		err := m.Update(func(now time.Time) error {
			v, err := m.CreateService(now, "p", ServiceSpec{Name: "db"})
			id = v.ServiceID
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	seen := map[string]bool{}
	for range 50 {
		id := create()
		if seen[id] {
			t.Fatalf("id %s handed out twice", id)
		}
		seen[id] = true
		err := m.Update(func(now time.Time) error {
			s, err := m.FindService("p", id)
			if err != nil {
				return err
			}
			return m.DeleteService(s, now)
		})
		if err != nil {
			t.Fatalf("deleting %s: %v", id, err)
		}
	}
	if !m.usedIDs[create()] {
		t.Error("a new id is not recorded as used")
	}
}
