package deploy

import (
	"fmt"
	"slices"
	"testing"

	"github.com/dbcloud/dbcloud-go"
)

// change is a create of a resource of a kind, service and name.
func change(kind dbcloud.ResourceKind, service, name string) Change {
	return Change{Action: Create, Kind: kind, Service: service, Name: name}
}

// describe is each chain of p, in the order they start: its steps, and
// the steps of each chain it waits for.
func describe(p *Plan) []string {
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

// A plan's chains: one per service (the service and its sets), one per
// fork; a deploy's forks start after the services and wait for their
// parent's chain, a destroy's forks start first and their parent's chain
// waits for them.
func TestChainsOf(t *testing.T) {
	changes := []Change{
		change(dbcloud.KindService, "a", "a"),
		change(dbcloud.KindReplicaSet, "a", "r"),
		change(dbcloud.KindFork, "a", "a-copy"),
		change(dbcloud.KindService, "b", "b"),
		change(dbcloud.KindFork, "b", "b-copy"),
		change(dbcloud.KindReplicaSet, "b", "r"),
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

// A VPC's chain starts first and the chains of the services attaching to
// it (by the state's name) and of its peerings wait for it; a fork of such
// a service starts last. A VPC deleted (a destroy, a prune) waits for
// every service's chain, its peerings deleted in its own chain first.
func TestChainsOfVPCs(t *testing.T) {
	attach := Change{Action: Update, Kind: dbcloud.KindService, Service: "a", Name: "a", Field: FieldVPC, From: &Values{VPCID: new("")}, To: &Values{VPC: "net"}}
	deployPlan := &Plan{Changes: []Change{
		change(dbcloud.KindVPC, "net", "net"),
		change(dbcloud.KindPeering, "net", "1/r/v"),
		change(dbcloud.KindService, "a", "a"),
		attach,
		change(dbcloud.KindFork, "a", "a-copy"),
		change(dbcloud.KindService, "b", "b"),
		{Action: Delete, Kind: dbcloud.KindVPC, Service: "old", Name: "old", ID: "9"},
	}}
	if got, want := describe(deployPlan), []string{"[0]", "[5]", "[1] after [0]", "[2 3] after [0]", "[4] after [2 3]", "[6] after [2 3] after [4] after [5]"}; !slices.Equal(got, want) {
		t.Errorf("a deploy's chains: %q, want %q", got, want)
	}
	del := func(kind dbcloud.ResourceKind, service, name string) Change {
		return Change{Action: Delete, Kind: kind, Service: service, Name: name, ID: name}
	}
	destroyPlan := &Plan{Destroy: true, Changes: []Change{
		del(dbcloud.KindService, "a", "a"),
		del(dbcloud.KindService, "b", "b"),
		del(dbcloud.KindPeering, "net", "1/r/v"),
		del(dbcloud.KindVPC, "net", "net"),
	}}
	if got, want := describe(destroyPlan), []string{"[0]", "[1]", "[2 3] after [0] after [1]"}; !slices.Equal(got, want) {
		t.Errorf("a destroy's chains: %q, want %q", got, want)
	}
}
