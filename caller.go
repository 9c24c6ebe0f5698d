package dbcloud

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dbcloud/dbcloud-go/internal/pipeline"
	"github.com/dbcloud/dbcloud-go/internal/poll"
)

// The core: every API call of a Client is a request built here (where the
// resource is, and its path from the ids), sent here through the pipeline,
// and what its attempts came to is its outcome. A read (read) is the whole
// call; a change begins with the read-only guard (beginChange) and settles
// its outcome itself before it ends (endCall).
// The core calls only downward: into the outcome's errors (answers.go),
// the attempts' log (log.go), the decoding (decode.go) and the pipeline.

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
	// creds and opts are what the Client was made of, for Client.With;
	// here, so that a Client stays a comparable value.
	creds Credentials
	opts  []Option
}

// ref names one resource: a service (replicaSetID "") or a replica set of
// one. For a create or a list it names the parent: the project of services,
// the service of replica sets.
type ref struct{ projectID, serviceID, replicaSetID string }

// Path templates of CallInfo.Path, one per resource; an operation's is one
// of them followed by what it adds (tplService+"/stop").
const (
	tplServices    = "/projects/{project_id}/services"
	tplService     = tplServices + "/{service_id}"
	tplReplicaSets = tplService + "/replicaSets"
	tplReplicaSet  = tplReplicaSets + "/{replica_set_id}"
)

// minReplicaSetIDLen is the API's shortest replica set id.
const minReplicaSetIDLen = 3

// request describes one API request.
type request struct {
	info CallInfo // the operation, for the observer and the guard
	exchange
	query url.Values
	body  any // encoded as JSON; nil means no body
	// err is why the request cannot be built (an id that names nothing):
	// returned before anything is sent or observed.
	err error
	// partOf: the request is a step of an operation that the read-only
	// guard already let through (recovery setting the password of the
	// service the user's create made), and is not asked again.
	partOf bool
}

// newRequest is the request of op on the resource that at names. tpl is
// its CallInfo.Path, and its path is tpl with each placeholder replaced by
// its id, escaped as one segment: "/", "?", "#", "%" and spaces by
// url.PathEscape, and "." and ".." too, which servers and proxies resolve
// as dot segments and would route elsewhere. An id that cannot name a
// resource (empty, or a replica set id shorter than the API's) is the
// request's err.
func newRequest(op, method, tpl string, at ref) request {
	kind := KindService
	if strings.HasPrefix(op, "ReplicaSets.") {
		kind = KindReplicaSet
	}
	r := request{
		info:     CallInfo{Operation: op, Method: method, Path: tpl, Kind: kind, ProjectID: at.projectID, ServiceID: at.serviceID, ReplicaSetID: at.replicaSetID},
		exchange: exchange{method: method},
	}
	var path strings.Builder // one allocation: String does not copy
	path.Grow(len(tpl) + len(at.projectID) + len(at.serviceID) + len(at.replicaSetID))
	for rest := tpl; rest != ""; {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			path.WriteString(rest)
			break
		}
		end := open + strings.IndexByte(rest[open:], '}')
		path.WriteString(rest[:open])
		field, id := "projectID", at.projectID
		switch rest[open+1 : end] {
		case "service_id":
			field, id = "serviceID", at.serviceID
		case "replica_set_id":
			field, id = "replicaSetID", at.replicaSetID
		}
		rest = rest[end+1:]
		switch {
		case r.err != nil:
		case field == "replicaSetID" && utf8.RuneCountInString(id) < minReplicaSetIDLen:
			r.err = invalid(field, "required, at least "+strconv.Itoa(minReplicaSetIDLen)+" characters")
		case id == "":
			r.err = invalid(field, "required")
		case id == "." || id == "..":
			path.WriteString(strings.Repeat("%2E", len(id)))
		default:
			path.WriteString(url.PathEscape(id))
		}
	}
	if r.err == nil {
		r.path = path.String()
	}
	return r
}

// checkIDs returns the error of ids that cannot name the resource of tpl:
// what newRequest would refuse, for a wait or a follow to refuse before
// anything is sent.
func checkIDs(tpl string, at ref) error {
	r := newRequest("", "", tpl, at)
	return r.err
}

// read is the whole life of a read (a GET): told to the observer as a
// call when one is set, sent, and its failure returned. A 2xx body is
// decoded into out on the way back. A read changes nothing, so the
// read-only guard never asks about it.
func (api *caller) read(ctx context.Context, r *request, out any) error {
	if r.err != nil {
		return r.err
	}
	if api.observer == nil {
		return api.send(ctx, r, out).err
	}
	ctx, c := api.startCall(ctx, r.info)
	o := api.send(ctx, r, out)
	return api.endCall(c, &o, o.err)
}

// send sends r through the pipeline and returns what its attempts came
// to: the request as the pipeline sends it (the URL, the encoded body, the
// decoder of a 2xx answer into out, and the attempts' observer when anyone
// listens), then the outcome, whose error answers.go makes when it failed.
// The operation decides what the outcome means.
func (api *caller) send(ctx context.Context, r *request, out any) outcome {
	if err := ctx.Err(); err != nil {
		return outcome{err: fmt.Errorf("dbcloud: %s %s: %w", r.method, r.path, err)}
	}
	pr := pipeline.Request{Method: r.method, URL: api.base + r.path, Creating: r.creates != "", Reads: r.reads, Out: out, Decode: decodeAnswer}
	if len(r.query) > 0 {
		pr.URL += "?" + r.query.Encode()
	}
	if r.body != nil {
		b, err := json.Marshal(r.body)
		if err != nil {
			return outcome{err: fmt.Errorf("dbcloud: %s %s: encoding body: %w", r.method, r.path, err)}
		}
		pr.Body = b
	}
	if api.observer != nil || api.logger != nil {
		pr.Observe = &attempts{observer: api.observer, logger: api.logger, pipe: api.pipe, info: r.info, exchange: r.exchange}
	}
	res := api.pipe.Do(ctx, pr)
	o := outcome{acted: res.Acted, earlierActed: res.EarlierActed, attempts: res.Attempts, last: res.Last}
	if res.Came != pipeline.Usable { // a usable 2xx has no error to explain
		r.explain(&o, res, api.pipe.Secrets())
	}
	return o
}

// call is one operation in progress, as the observer was told of it at
// its start.
type call struct {
	info  CallInfo
	ctx   context.Context // what StartCall returned
	start time.Time
}

// startCall tells the observer an operation starts, and returns the
// context StartCall returned, the operation's from then on. The observer
// is set.
func (api *caller) startCall(ctx context.Context, info CallInfo) (context.Context, call) {
	c := call{info: info, start: time.Now()}
	c.ctx = api.observer.StartCall(ctx, info)
	return c.ctx, c
}

// endCall tells the observer, if one is set, how the operation ended,
// with the outcome of its main request (nil if none was sent), and returns
// err.
func (api *caller) endCall(c call, o *outcome, err error) error {
	if api.observer == nil {
		return err
	}
	res := CallResult{Duration: time.Since(c.start), Err: err}
	if o != nil {
		res.Attempts, res.StatusCode = o.attempts, o.last.Status
		if o.last.Status != 0 {
			res.RequestID = serverText(o.last.Header.Get("X-Request-Id"), api.pipe.Secrets(), "")
		}
	}
	api.observer.EndCall(c.ctx, c.info, res)
	return err
}
