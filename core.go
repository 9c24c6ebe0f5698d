package dbcloud

import (
	"context"
	"log/slog"
	"net/url"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/pipeline"
	"github.com/dbcloud/dbcloud-go/internal/poll"
)

// The core's types: the caller that makes a Client's calls, and the
// request each operation states. What the core does with them is in
// caller.go (the ids' check, do); the types are apart so that the files
// do calls into (answers.go, log.go, readonly.go, recovery.go, settle.go)
// name them without naming do's file: the core calls only downward, and
// no file of it reaches back to caller.go.

// caller makes every API call of a Client. It is immutable after NewClient
// but for its pollers, which their registry guards, so a Client is safe
// for concurrent use.
type caller struct {
	base        string // scheme://host/.../v1, no trailing slash
	pipe        *pipeline.Client
	credKind    string        // "API key", ...: what a printed Client shows
	recovery    bool          // WithCreateRecovery
	settle      time.Duration // WithCreateSettle
	logger      *slog.Logger
	observer    Observer      // WithObserver; nil observes nothing
	projectID   string        // WithProjectID, DBCLOUD_PROJECT_ID
	readOnly    readOnlyMode  // WithReadOnly, WithReadOnlyProd
	pollFirst   time.Duration // WithDefaultPollInterval
	pollLongest time.Duration
	pollers     poll.Registry // the waits' pollers, one per scope
	followWalk  int           // 0: maxFollowWalk (see follower.walkBound)
	// creds and opts are what the Client was made of, for Client.With;
	// here, so that a Client stays a comparable value.
	creds Credentials
	opts  []Option
}

// ref names one resource by the ids of its path: a service
// (replicaSetID ""), a replica set of one, a VPC (peeringID "") or a
// peering of one. For a create or a list it names the parent: the project
// of services and of VPCs, the service of replica sets, the VPC of
// peerings.
type ref struct{ projectID, serviceID, replicaSetID, vpcID, peeringID string }

// What a path names: the ids of ref it holds (ref.escape), one bit each,
// in ref's order.
const (
	inProject    = 1 << 0           // /projects/{project_id}/services, /projects/{project_id}/vpcs
	inService    = inProject | 1<<1 // /projects/{project_id}/services/{service_id}
	inReplicaSet = inService | 1<<2 // .../replicaSets/{replica_set_id}
	inVPC        = inProject | 1<<3 // /projects/{project_id}/vpcs/{vpc_id}
	inPeering    = inVPC | 1<<4     // .../peerings/{peering_id}
)

// Path templates of CallInfo.Path, one per resource; an operation's is one
// of them followed by what it adds (tplService+"/stop"). The operation
// writes its path beside it, from the ids escape returned.
const (
	tplServices    = "/projects/{project_id}/services"
	tplService     = tplServices + "/{service_id}"
	tplReplicaSets = tplService + "/replicaSets"
	tplReplicaSet  = tplReplicaSets + "/{replica_set_id}"
	tplVPCs        = "/projects/{project_id}/vpcs"
	tplVPC         = tplVPCs + "/{vpc_id}"
	tplPeerings    = tplVPC + "/peerings"
	tplPeering     = tplPeerings + "/{peering_id}"
)

// minReplicaSetIDLen is the API's shortest replica set id.
const minReplicaSetIDLen = 3

// request is one API request, as its operation states it: what it is
// (op, method, kind, and whether it creates), where (its path, built by
// the operation from a constant format and the ids escape returned, and
// tpl, the same path with placeholders), and what it sends.
type request struct {
	op     string       // CallInfo.Operation: "Services.Stop"
	method string       // the HTTP method
	kind   ResourceKind // what it is about: CallInfo.Kind
	tpl    string       // CallInfo.Path: tplService+"/stop"
	path   string       // escaped, after the base URL
	at     ref          // the ids of the path, as given
	// creates: the request makes a new resource, and is sent once (see
	// "Retries" in the package documentation); a failure that may have
	// made it matches ErrMaybeCreated. want is what recovery looks for
	// under WithCreateRecovery.
	creates bool
	want    wanted
	query   url.Values
	body    any    // encoded as JSON; nil means no body
	scrub   string // a secret of this request to keep out of errors
	// partOf: the request is a step of an operation that the read-only
	// guard already let through (recovery setting the password of the
	// service the user's create made), and is not asked again.
	partOf bool
	// reads: a POST that changes nothing (Metrics.Query), sent and
	// retried as a GET is, and never put to the read-only guard.
	reads bool
	// effect, of a repeatable change, settles what its attempts left open
	// (see tookEffect); nil leaves the outcome as they left it.
	effect effect
}

// effect reads the resource a change is about, to settle an outcome its
// attempts left open, and reports whether the change has taken effect;
// status is the answer that left it open. A failed read is its error.
type effect func(ctx context.Context, status int) (done bool, err error)

// wanted is what a create asks for, by which recovery tells its resource
// from the others listed: a name, or, for a fork, its parent and the name
// asked for, if any; or, for a kind told apart by more than a name (a
// keyer), its key.
type wanted struct {
	name   string
	forkOf string // a fork's parent; "" for the other creates
	key    string // a keyer's key of what was asked for
}

// servesKey is the key of the contexts of the waits that a poller's shared
// read serves (CallInfo.Serves), a value of the read's context: the
// poller's reads are the public List's.
type servesKey struct{}
