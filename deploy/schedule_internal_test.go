package deploy

import (
	"fmt"
	"slices"
	"testing"

	"github.com/dbcloud/dbcloud-go"
)

// A plan's chains: one per service (the service and its sets), one per
// fork; a deploy's forks start after the services and wait for their
// parent's chain, a destroy's forks start first and their parent's chain
// waits for them.
func TestChainsOf(t *testing.T) {
	change := func(kind dbcloud.ResourceKind, service, name string) Change {
		return Change{Action: Create, Kind: kind, Service: service, Name: name}
	}
	changes := []Change{
		change(dbcloud.KindService, "a", "a"),
		change(dbcloud.KindReplicaSet, "a", "r"),
		change(dbcloud.KindFork, "a", "a-copy"),
		change(dbcloud.KindService, "b", "b"),
		change(dbcloud.KindFork, "b", "b-copy"),
		change(dbcloud.KindReplicaSet, "b", "r"),
	}
	describe := func(p *Plan) []string {
		chains := chainsOf(p)
		var out []string
		for _, c := range chains {
			s := fmt.Sprint(c.steps)
			for _, dep := range c.after {
				s += fmt.Sprintf(" after %v", dep.steps)
			}
			out = append(out, s)
		}
		return out
	}
	deployPlan := &Plan{Changes: changes}
	if got, want := describe(deployPlan), []string{"[0 1]", "[3 5]", "[2] after [0 1]", "[4] after [3 5]"}; !slices.Equal(got, want) {
		t.Errorf("a deploy's chains: %q, want %q", got, want)
	}
	destroyPlan := &Plan{Destroy: true, Changes: changes}
	if got, want := describe(destroyPlan), []string{"[2]", "[4]", "[0 1] after [2]", "[3 5] after [4]"}; !slices.Equal(got, want) {
		t.Errorf("a destroy's chains: %q, want %q", got, want)
	}
}
