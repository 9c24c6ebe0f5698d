package dbcloud

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dbcloud/dbcloud-go/internal/pipeline"
)

// The core: every API call of a Client is a request (core.go) its
// operation builds (ref.escape checks the ids, the operation writes the
// path) and sends with do, the one function that sends, through the
// pipeline; what its attempts came to is its outcome, which do settles
// (settle.go) when it failed. The core calls only downward: into the
// read-only guard (readonly.go), create recovery (recovery.go), the
// outcome's errors (answers.go), the attempts' log (log.go), the decoding
// (decode.go) and the pipeline; none of them names this file, and their
// reads go through a kind (kind.go), so that the package's files form no
// cycle (go run ./internal/testkit/cmd/filecycles).

// escape checks the ids of at that in holds (inProject, inService,
// inReplicaSet, inVPC or inPeering), the ids a path holds, and returns
// them escaped, each as one path segment: "/", "?", "#", "%" and spaces by
// url.PathEscape, and "." and ".." too, which servers and proxies resolve
// as dot segments and would route elsewhere; the ids a path does not hold
// are "". An id that cannot name a resource (empty, a replica set id
// shorter than the API's, a VPC id of anything but digits, as the API's
// are) is an error, before anything is sent.
func (at ref) escape(in int) (ref, error) {
	fields := [...]string{"projectID", "serviceID", "replicaSetID", "vpcID", "peeringID"}
	ids := [...]string{at.projectID, at.serviceID, at.replicaSetID, at.vpcID, at.peeringID}
	for i, id := range ids {
		switch {
		case in&(1<<i) == 0:
			ids[i] = ""
		case i == 2 && utf8.RuneCountInString(id) < minReplicaSetIDLen:
			return ref{}, invalid(fields[i], "required, at least "+strconv.Itoa(minReplicaSetIDLen)+" characters")
		case i == 3:
			if err := checkVPCID(id); err != nil {
				return ref{}, err // digits only: nothing to escape
			}
		case id == "":
			return ref{}, invalid(fields[i], "required")
		case id == "." || id == "..":
			ids[i] = strings.Repeat("%2E", len(id))
		default:
			ids[i] = url.PathEscape(id)
		}
	}
	return ref{ids[0], ids[1], ids[2], ids[3], ids[4]}, nil
}

// check is the error of escape, for a wait or a follow to refuse ids
// before anything is sent.
func (at ref) check(in int) error {
	_, err := at.escape(in)
	return err
}

// checkVPCID refuses a VPC id that cannot be one: the API's are digits.
func checkVPCID(id string) error {
	if id == "" {
		return invalid("vpcID", "required")
	}
	for _, c := range []byte(id) {
		if c < '0' || c > '9' {
			return invalid("vpcID", "digits only")
		}
	}
	return nil
}

// info is what the observer is told of r, sent under ctx.
func (r *request) info(ctx context.Context) CallInfo {
	serves, _ := ctx.Value(servesKey{}).([]context.Context)
	return CallInfo{Operation: r.op, Method: r.method, Path: r.tpl, Kind: r.kind,
		ProjectID: r.at.projectID, ServiceID: r.at.serviceID, ReplicaSetID: r.at.replicaSetID,
		VPCID: r.at.vpcID, PeeringID: r.at.peeringID, Serves: serves}
}

// do is the one function that sends: every operation builds its request
// and calls it. It makes the call r, decoding a 2xx answer into out (nil:
// the status is the answer), and returns what it came to for the caller:
//   - a change (any method but GET, and not a POST that reads) is first
//     put to the read-only guard;
//   - the request is made as the pipeline sends it: the URL, the encoded
//     body, the decoder of a 2xx answer into out, and the attempts'
//     observer when anyone listens;
//   - a create is sent once, or, with WithCreateRecovery, through its
//     recovery, which leaves the resource it found in out;
//   - a failure is settled (settleFailure): a create's that may have acted
//     matches ErrMaybeCreated, and a change's effect decides what a
//     retry's 404 or 409, or a lost answer, means.
//
// The observer, when set, is told of the call around all of it: the
// guard's read and recovery's lists are calls inside it.
func (api *caller) do(ctx context.Context, r *request, out any) error {
	var (
		info  CallInfo
		start time.Time
		o     outcome
		err   error
	)
	if api.observer != nil {
		info, start = r.info(ctx), time.Now()
		ctx = api.observer.StartCall(ctx, info)
	}
	if r.method != http.MethodGet && api.readOnly != readWrite && !r.partOf && !r.reads {
		err = api.guard(ctx, r)
	}
	pr := pipeline.Request{Method: r.method, URL: api.base + r.path, Creating: r.creates, Reads: r.reads, Out: out, Decode: decodeAnswer}
	if len(r.query) > 0 {
		pr.URL += "?" + r.query.Encode()
	}
	if err == nil && r.body != nil {
		if pr.Body, err = json.Marshal(r.body); err != nil {
			err = fmt.Errorf("dbcloud: %s %s: encoding body: %w", r.method, r.path, err)
		}
	}
	if api.observer != nil || api.logger != nil {
		// A copy of r: the request stays off the heap when nobody listens.
		pr.Observe = &attempts{observer: api.observer, logger: api.logger, pipe: api.pipe, info: info, r: *r}
	}
	switch {
	case err != nil: // nothing was sent
	case r.creates && api.recovery:
		o, err = api.recoverCreate(ctx, r, pr)
	default:
		res := api.pipe.Do(ctx, pr)
		o = outcome{attempts: res.Attempts, last: res.Last}
		if res.Came != pipeline.Usable { // a usable 2xx has no error to explain
			o = r.outcome(res, api.pipe.Secrets())
			err = api.settleFailure(ctx, r, &o)
		}
	}
	if api.observer != nil {
		api.endCall(ctx, info, start, &o, err)
	}
	return err
}

// endCall tells the observer, which is set, how the call info that
// started at start ended: with err, after the attempts of o (none when
// nothing was sent). ctx is what StartCall returned.
func (api *caller) endCall(ctx context.Context, info CallInfo, start time.Time, o *outcome, err error) {
	res := CallResult{Duration: time.Since(start), Err: err, Attempts: o.attempts, StatusCode: o.last.Status}
	if o.last.Status != 0 {
		res.RequestID = serverText(o.last.Header.Get("X-Request-Id"), api.pipe.Secrets(), "")
	}
	api.observer.EndCall(ctx, info, res)
}
