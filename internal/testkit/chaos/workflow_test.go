package chaos

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/dbcloud/dbcloud-go"
)

// TestCleanupTargets: cleanup takes the ids a create's error names, each
// once, and looks by name, after the settle period, only when it names none.
func TestCleanupTargets(t *testing.T) {
	const settle = time.Hour
	cases := []struct {
		name   string
		id     string // returned by the create
		err    error
		want   []string
		search bool
	}{
		{"returned with the error naming it", "s1", &dbcloud.MaybeCreatedError{Resource: "service", IDs: []string{"s1"}}, []string{"s1"}, false},
		{"several named", "", fmt.Errorf("x: %w", &dbcloud.MaybeCreatedError{IDs: []string{"s2", "s1"}}), []string{"s1", "s2"}, false},
		{"none named", "", &dbcloud.MaybeCreatedError{Resource: "service"}, nil, true},
		{"not a create that may have happened", "", errors.New("refused"), nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := &workflow{soak: &soak{cfg: Config{CreateSettle: settle}, ledger: &ledger{known: map[string]bool{}}}}
			w.service.id = c.id
			before := time.Now()
			w.createFailed(&w.service, c.err)
			if diff := cmp.Diff(c.want, w.service.toDelete(nil)); diff != "" {
				t.Errorf("to delete (-want +got):\n%s", diff)
			}
			if searching := !w.service.searchAt.IsZero(); searching != c.search {
				t.Errorf("looks by name: %t, want %t", searching, c.search)
			} else if searching && w.service.searchAt.Before(before.Add(settle)) {
				t.Errorf("looks by name at %v, before the settle period ends", w.service.searchAt)
			}
			for _, id := range c.want {
				if !w.ledger.known[id] {
					t.Errorf("%s named by the error is not known", id)
				}
			}
		})
	}
	r := resource{id: "s1", deleted: true}
	if got := r.toDelete([]string{"s3"}); !cmp.Equal(got, []string{"s3"}) {
		t.Errorf("toDelete after the delete was accepted = %v, want only what was found", got)
	}
}
