package dbcloud

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/dbcloud/dbcloud-go/internal/pipeline"
)

// The fuzz targets below feed bytes to the decoders the way a response
// reaches them: an *http.Response whose body is the input, answered by the
// transport to one attempt that the pipeline reads (a 2xx decoded by
// decodeAnswer on the way back, the rest kept for apiError). Their seed
// corpora live in testdata/fuzz/<Target>/ and run with every `go test`;
// run one target with, for example:
//
//	go test -run '^$' -fuzz '^FuzzDecodeService$' -fuzztime 60s -parallel 1 .

const (
	fuzzKey       = "k3y-fuzz"           // the API key of the fuzzed caller
	fuzzScrub     = "s3cret-pw-fuzz"     // a call's secret (UpdatePassword's scrub)
	fuzzRequestID = "req-fuzz-0001"      // the X-Request-Id of every success response
	fuzzMethod    = http.MethodGet       // the method of the fuzzed exchanges
	fuzzPath      = "/p"                 // the path of the fuzzed exchanges
	fuzzRedacted  = `"` + redacted + `"` // a Secret as JSON
)

// fuzzResponse builds the response the transport answers:
// announced says whether ContentLength is the body's length or -1 (chunked).
func fuzzResponse(status int, data []byte, announced bool, h http.Header) *http.Response {
	length := int64(-1)
	if announced {
		length = int64(len(data))
	}
	return &http.Response{
		StatusCode:    status,
		Header:        h,
		Body:          &fuzzBody{Reader: bytes.NewReader(data)},
		ContentLength: length,
	}
}

// fuzzBody is a response body that records whether it was closed.
type fuzzBody struct {
	*bytes.Reader
	closed bool
}

func (b *fuzzBody) Close() error { b.closed = true; return nil }

// answerWith is a transport that answers every request with resp.
type answerWith struct{ resp *http.Response }

func (a answerWith) RoundTrip(r *http.Request) (*http.Response, error) {
	a.resp.Request = r
	return a.resp, nil
}

// fuzzSend sends one GET /p with the call's secret fuzzScrub through a
// caller of the API key fuzzKey that allows no retry, the transport
// answering resp, and returns its error. The response's body must be
// closed.
func fuzzSend(t *testing.T, resp *http.Response, out any) error {
	t.Helper()
	var calls attemptCounter
	c, err := NewClient(fuzzKey, WithBaseURL("https://api.test/v1"),
		WithHTTPClient(&http.Client{Transport: answerWith{resp}}), WithRetryMax(0), WithObserver(&calls))
	if err != nil {
		t.Fatal(err)
	}
	err = c.api.do(context.Background(), &request{op: "Fuzz.Get", method: fuzzMethod, tpl: fuzzPath, path: fuzzPath, scrub: fuzzScrub}, out)
	if calls.attempts != 1 {
		t.Fatalf("%d attempts with no retry allowed", calls.attempts)
	}
	if b, ok := resp.Body.(*fuzzBody); ok && !b.closed {
		t.Fatalf("the response body was left open")
	}
	return err
}

// attemptCounter is an Observer that keeps the attempts of the last call.
type attemptCounter struct{ attempts int }

func (*attemptCounter) StartCall(ctx context.Context, _ CallInfo) context.Context { return ctx }
func (*attemptCounter) StartAttempt(ctx context.Context, _ CallInfo, _ int) context.Context {
	return ctx
}
func (*attemptCounter) EndAttempt(context.Context, CallInfo, AttemptInfo) {}
func (a *attemptCounter) EndCall(_ context.Context, _ CallInfo, r CallResult) {
	a.attempts = r.Attempts
}

// fuzzDecode decodes data into out as the SDK decodes a 200 response to
// GET /p, and checks the error contract: nil, or a *ResponseError that
// matches ErrInvalidResponse and describes the exchange.
func fuzzDecode(t *testing.T, data []byte, announced bool, out any) error {
	t.Helper()
	resp := fuzzResponse(http.StatusOK, data, announced, http.Header{"X-Request-Id": {fuzzRequestID}})
	err := fuzzSend(t, resp, out)
	if len(bytes.TrimSpace(data)) == 0 && err == nil {
		t.Fatalf("an empty body %q decoded into %T without error", data, out)
	}
	if err == nil {
		return nil
	}
	var re *ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("decoding %T: error %T (%v) is not a *ResponseError", out, err, err)
	}
	if !errors.Is(err, ErrInvalidResponse) {
		t.Fatalf("decoding %T: %v does not match ErrInvalidResponse", out, err)
	}
	if re.StatusCode != http.StatusOK || re.RequestID != fuzzRequestID || re.Method != fuzzMethod || re.Path != fuzzPath || re.Err == nil {
		t.Fatalf("decoding %T: ResponseError does not describe the exchange: %+v", out, *re)
	}
	if errors.Is(err, ErrResponseTooLarge) {
		t.Fatalf("decoding %T: a %d-byte body is not too large: %v", out, len(data), err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "dbcloud: GET /p: reading 200 response: ") {
		t.Fatalf("decoding %T: unexpected error text %q", out, msg)
	}
	return err
}

// fuzzAsList wraps one JSON value into a one-element array.
func fuzzAsList(data []byte) []byte {
	return append(append([]byte("["), data...), ']')
}

// FuzzDecodeService decodes a Service (and a one-element list of it) as
// ServicesClient.Get and List do.
//
// Invariants: no panic; the error contract of fuzzDecode; a body that decodes
// alone also decodes as [body] to the same Service; when the body also decodes
// strictly into the public Service, both agree on every field but
// VPCEndpoint, which is vpc_endpoint, or the deprecated vpcEndpoint when
// vpc_endpoint is absent; the Service encodes to JSON without error, with its
// InitialPassword as "[redacted]" and nothing of the password; and that JSON
// decodes back to the same Service but for the redacted password.
func FuzzDecodeService(f *testing.F) {
	f.Add([]byte(`{"service_id":"s1","project_id":"p1","name":"db","region_code":"us-east-1","service_type":"POSTGRES","status":"READY","created":"2026-01-02T03:04:05Z","resources":[]}`), true)
	f.Add([]byte(`{"service_id":"s1","initial_password":"hunter2-hunter2","resources":[{"spec":{"cpu_millis":"500","memory_gbs":2.0}}],"vpcEndpoint":{"host":"h","port":"5432","vpc_id":"v"}}`), false)
	f.Add([]byte(`{"endpoint":{"port":"5e3"}}`), true)
	f.Add([]byte("<html><body>502 Bad Gateway</body></html>"), false)
	f.Add([]byte(""), true)
	f.Fuzz(func(t *testing.T, data []byte, announced bool) {
		var w serviceJSON
		err := fuzzDecode(t, data, announced, &w)

		var list serviceListJSON
		listErr := fuzzDecode(t, fuzzAsList(data), announced, &list)
		if err != nil {
			return
		}
		svc := (*Service)(&w.serviceFields)
		if listErr != nil {
			t.Fatalf("decodes alone but not as [body]: %v", listErr)
		}
		if len(list.services) != 1 {
			t.Fatalf("[body] decoded to %d services", len(list.services))
		}
		if d := cmp.Diff(svc, &list.services[0]); d != "" {
			t.Fatalf("alone and as [body] disagree (-alone +list):\n%s", d)
		}
		fuzzCheckLegacyVPC(t, data, svc)

		var pub Service
		if json.Unmarshal(data, &pub) == nil {
			if d := cmp.Diff(pub, *svc, cmpopts.IgnoreFields(Service{}, "VPCEndpoint")); d != "" {
				t.Fatalf("the SDK's decoding disagrees with a strict decode into Service (-strict +sdk):\n%s", d)
			}
			var legacy struct {
				V *VPCEndpoint `json:"vpcEndpoint"`
			}
			want, check := pub.VPCEndpoint, true
			if want == nil {
				// vpcEndpoint may need the tolerant pass ("port":"5432"): then
				// there is nothing strict to compare with.
				check = json.Unmarshal(data, &legacy) == nil
				want = legacy.V
			}
			if d := cmp.Diff(want, svc.VPCEndpoint); check && d != "" {
				t.Fatalf("VPCEndpoint (-want +got):\n%s", d)
			}
		}

		fuzzCheckServiceEncoding(t, svc)
	})
}

// fuzzCheckLegacyVPC checks that a usable deprecated vpcEndpoint is used
// when vpc_endpoint is absent, and that a malformed one is ignored.
func fuzzCheckLegacyVPC(t *testing.T, data []byte, svc *Service) {
	t.Helper()
	var fields struct {
		Current json.RawMessage `json:"vpc_endpoint"`
		Legacy  json.RawMessage `json:"vpcEndpoint"`
	}
	if json.Unmarshal(data, &fields) != nil || (len(fields.Current) > 0 && string(fields.Current) != "null") {
		return
	}
	var legacy *VPCEndpoint
	if len(fields.Legacy) > 0 && decodeJSON(fields.Legacy, &legacy) != nil {
		legacy = nil // malformed: ignored
	}
	if d := cmp.Diff(legacy, svc.VPCEndpoint); d != "" {
		t.Fatalf("VPCEndpoint from the deprecated vpcEndpoint (-want +got):\n%s", d)
	}
}

// fuzzCheckServiceEncoding checks that a decoded Service encodes, hides its
// password and round-trips.
func fuzzCheckServiceEncoding(t *testing.T, svc *Service) {
	t.Helper()
	out, err := json.Marshal(svc)
	if err != nil {
		t.Fatalf("json.Marshal(decoded Service): %v", err)
	}
	pw := svc.InitialPassword
	if pw != "" && !bytes.Contains(out, []byte(`"initial_password":`+fuzzRedacted)) {
		t.Fatalf("a Service with a password encodes without \"initial_password\":%s: %s", fuzzRedacted, out)
	}

	// The password alone: the output must be the one for any other password.
	skeleton := Service{}
	if pw != "" {
		skeleton.InitialPassword = "x"
	}
	want, _ := json.Marshal(skeleton)
	got, err := json.Marshal(Service{InitialPassword: pw})
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("a Service with only a password encodes as %s (%v), want %s", got, err, want)
	}
	if pw != "" {
		const all = "[redacted]|[redacted]|[redacted]|[redacted]|\"[redacted]\"|[redacted]|[redacted]"
		if s := fmt.Sprintf("%v|%+v|%#v|%s|%q|%x|%d", pw, pw, pw, pw, pw, pw, pw); s != all {
			t.Fatalf("fmt shows the password: %q", s)
		}
	}

	var back Service
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("the encoded Service does not decode: %v\n%s", err, out)
	}
	redactedCopy := *svc
	if pw != "" {
		redactedCopy.InitialPassword = redacted
	}
	// omitempty drops an empty read_replica_sets: [] comes back as nil.
	if d := cmp.Diff(redactedCopy, back, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("decode(encode(Service)) differs (-decoded +round-tripped):\n%s", d)
	}
}

// fuzzReplicaSetBody is a replica set whose six numbers are all written as %[1]s.
const fuzzReplicaSetBody = `{"id":"rs-1","name":"r","status":"active","nodes":%[1]s,"cpu_millis":%[1]s,"memory_gbs":%[1]s,` +
	`"endpoint":{"host":"h","port":%[1]s},"connection_pooler":{"endpoint":{"port":%[1]s}},"metadata":{"environment":"DEV"}}`

// FuzzDecodeReplicaSet decodes a ReadReplicaSet (ReplicaSetsClient.Create)
// and a []ReadReplicaSet (List) from the same bytes, then a replica set whose
// numbers are all n, written in each form the SDK accepts.
//
// Invariants: no panic; the error contract of fuzzDecode; a body that decodes
// alone also decodes as [body] to the same value; a decoded set encodes and
// decodes back, strictly, to itself; n written as N, "N", N.0, "N.0" or NE0
// decodes to n in every numeric field (nodes, cpu_millis, memory_gbs and the
// ports), alone and in a list, and a fractional N.25 or N.75 rounds to the
// nearest integer.
func FuzzDecodeReplicaSet(f *testing.F) {
	f.Add([]byte(`{"id":"rs-1","name":"r","status":"active","nodes":2,"cpu_millis":1000,"memory_gbs":4}`), int64(2), true)
	f.Add([]byte(`[{"id":"rs-1","nodes":"2","cpu_millis":1000.0,"memory_gbs":" 4 "},{"id":"rs-2","status":"rebalancing"}]`), int64(1000), false)
	f.Add([]byte(`{"nodes":1e400}`), int64(-7), true)
	f.Add([]byte(`null`), int64(0), false)
	f.Fuzz(func(t *testing.T, data []byte, n int64, announced bool) {
		var set ReadReplicaSet
		err := fuzzDecode(t, data, announced, &set)
		var sets []ReadReplicaSet
		listErr := fuzzDecode(t, data, announced, &sets)
		var wrapped []ReadReplicaSet
		wrappedErr := fuzzDecode(t, fuzzAsList(data), announced, &wrapped)
		if err == nil {
			if wrappedErr != nil || len(wrapped) != 1 {
				t.Fatalf("decodes alone but not as [body]: %v, %d sets", wrappedErr, len(wrapped))
			}
			if d := cmp.Diff(set, wrapped[0]); d != "" {
				t.Fatalf("alone and as [body] disagree (-alone +list):\n%s", d)
			}
			fuzzRoundTrip(t, set)
		}
		if listErr == nil {
			fuzzRoundTrip(t, sets)
		}

		fuzzCheckNumberForms(t, n, announced)
	})
}

// fuzzRoundTrip checks that a decoded value encodes and decodes back,
// strictly and through decodeJSON, to itself.
func fuzzRoundTrip[T any](t *testing.T, v T) {
	t.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%T): %v", v, err)
	}
	var back T
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("encoded %T does not decode strictly: %v\n%s", v, err, out)
	}
	if d := cmp.Diff(v, back, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("decode(encode(%T)) differs (-decoded +round-tripped):\n%s", v, d)
	}
}

// fuzzCheckNumberForms decodes a replica set whose numbers are all n, written
// as N, then in every form decodeJSON promises to accept.
func fuzzCheckNumberForms(t *testing.T, n int64, announced bool) {
	t.Helper()
	if int64(int(n)) != n {
		return // a 32-bit int: N itself does not fit
	}
	plain := strconv.FormatInt(n, 10)
	type form struct {
		text string
		want int64
	}
	forms := []form{
		{plain, n},
		{`"` + plain + `"`, n},
		{plain + ".0", n},
		{`"` + plain + `.0"`, n},
		{plain + "E0", n},
	}
	// Fractions round to the nearest integer, half away from zero; checked
	// only where a float64 holds N.25 and N.75 exactly.
	if n > -1<<40 && n < 1<<40 {
		switch {
		case n > 0:
			forms = append(forms, form{plain + ".25", n}, form{`"` + plain + `.75"`, n + 1})
		case n < 0:
			forms = append(forms, form{plain + ".25", n}, form{`"` + plain + `.75"`, n - 1})
		default:
			forms = append(forms, form{"-0.25", 0}, form{`"0.75"`, 1}, form{"-0.5", -1})
		}
	}
	// Each form alone, then all of them in one list (as List decodes them).
	list := []byte("[")
	for i, form := range forms {
		body := []byte(fmt.Sprintf(fuzzReplicaSetBody, form.text))
		var set ReadReplicaSet
		if err := fuzzDecode(t, body, announced, &set); err != nil {
			t.Fatalf("%d written as %s: %v", n, form.text, err)
		}
		fuzzCheckNumbers(t, form.text, form.want, set)
		if i > 0 {
			list = append(list, ',')
		}
		list = append(list, body...)
	}
	list = append(list, ']')
	var sets []ReadReplicaSet
	if err := fuzzDecode(t, list, announced, &sets); err != nil || len(sets) != len(forms) {
		t.Fatalf("%d in every form, in a list: %v, %d sets", n, err, len(sets))
	}
	for i, form := range forms {
		fuzzCheckNumbers(t, form.text+" (in a list)", form.want, sets[i])
	}
}

func fuzzCheckNumbers(t *testing.T, text string, want int64, set ReadReplicaSet) {
	t.Helper()
	if set.ID != "rs-1" || set.Name != "r" || set.Status != ReplicaSetActive || set.Endpoint == nil || set.Endpoint.Host != "h" ||
		set.ConnectionPooler == nil || set.ConnectionPooler.Endpoint == nil || set.Metadata == nil || set.Metadata.Environment != EnvironmentDev {
		t.Fatalf("%s: the other fields were lost: %+v", text, set)
	}
	got := []int{set.Nodes, set.CPUMillis, set.MemoryGBs, set.Endpoint.Port, set.ConnectionPooler.Endpoint.Port}
	for i, g := range got {
		if int64(g) != want {
			t.Fatalf("%s decoded to %v (nodes, cpu_millis, memory_gbs, endpoint.port, pooler port); number %d is %d, want %d",
				text, got, i, g, want)
		}
	}
}

// FuzzDecodeLogsPage decodes a logs response as ServicesClient.ListLogs does.
//
// Invariants: no panic; the error contract of fuzzDecode; on success,
// LastCursor (LogPage.NextCursor) is last_cursor, or lastCursor only when
// last_cursor is empty; Entries is "entries" when present, else one entry per
// string of "logs" with only Message set, else nil.
func FuzzDecodeLogsPage(f *testing.F) {
	f.Add([]byte(`{"logs":["a","b"],"entries":[{"timestamp":"2026-03-04T05:06:07Z","severity":"LOG","message":"a"},{"timestamp":"2026-03-04T05:06:06Z","severity":"ERROR","message":"b"}],"last_cursor":"c2","lastCursor":"c2"}`), true)
	f.Add([]byte(`{"logs":["only","messages"],"lastCursor":"old-cursor"}`), false)
	f.Add([]byte(`{"logs":[1,2],"last_cursor":""}`), true)
	f.Add([]byte(`{"entries":null,"logs":null}`), false)
	f.Fuzz(func(t *testing.T, data []byte, announced bool) {
		var w logsJSON
		if fuzzDecode(t, data, announced, &w) != nil {
			return
		}
		if w.LastCursor == "" && w.LegacyLastCursor != "" {
			t.Fatalf("lastCursor %q not used when last_cursor is empty", w.LegacyLastCursor)
		}
		var ref struct {
			Entries    []LogEntry      `json:"entries"`
			LastCursor string          `json:"last_cursor"`
			Logs       json.RawMessage `json:"logs"`
			Legacy     string          `json:"lastCursor"`
		}
		if json.Unmarshal(data, &ref) != nil {
			return // decoded only through decodeJSON's tolerant pass
		}
		wantCursor := ref.LastCursor
		if wantCursor == "" {
			wantCursor = ref.Legacy
		}
		page := LogPage{Entries: w.Entries, NextCursor: w.LastCursor} // as ListLogs builds it
		if page.NextCursor != wantCursor {
			t.Fatalf("NextCursor = %q, want %q (last_cursor %q, lastCursor %q)", page.NextCursor, wantCursor, ref.LastCursor, ref.Legacy)
		}
		switch {
		case ref.Entries != nil:
			if d := cmp.Diff(ref.Entries, page.Entries); d != "" {
				t.Fatalf("Entries differ from \"entries\" (-want +got):\n%s", d)
			}
		case len(ref.Logs) > 0:
			var msgs []string
			if err := json.Unmarshal(ref.Logs, &msgs); err != nil {
				t.Fatalf("decoded although \"logs\" is not an array of strings: %v", err)
			}
			if len(page.Entries) != len(msgs) || (len(msgs) == 0) != (page.Entries == nil) {
				t.Fatalf("%d entries from %d logs", len(page.Entries), len(msgs))
			}
			for i, e := range page.Entries {
				if e != (LogEntry{Message: msgs[i]}) {
					t.Fatalf("entry %d from \"logs\" is %+v, want only Message %q", i, e, msgs[i])
				}
			}
		default:
			if page.Entries != nil {
				t.Fatalf("entries from nowhere: %+v", page.Entries)
			}
		}
	})
}

// FuzzAPIError reads any non-2xx response into an *APIError, as apiError
// does for every attempt.
//
// Invariants: no panic; a non-nil *APIError with the status, method, path and
// X-Request-Id of the response, and an emptied body; RetryAfter in
// [0, pipeline.MaxRetryAfter], the exact delay for delay-seconds; when the body is a
// JSON object with a non-empty code, message or details (a type error in
// another field allowed), Code, Message and Details are those strings;
// otherwise Code and Details are empty and Message is the body's first runes,
// at most errorMessageRunes, with every run of spaces and unprintable runes
// collapsed to one space and none at either end; the API key and the call's
// secret are replaced by "[redacted]" and appear nowhere in Error().
func FuzzAPIError(f *testing.F) {
	f.Add(uint16(404), []byte(`{"code":"NOT_FOUND","message":"service not found","details":"svc-1"}`), "", "req-1", true)
	f.Add(uint16(401), []byte(`{"code":"UNAUTHORIZED","message":"invalid key k3y-fuzz"}`), "", "", false)
	f.Add(uint16(502), []byte("<html>\r\n<head><title>502 Bad Gateway</title></head>\n<body>\tk3y-fuzz\x00\xff</body></html>"), "Wed, 21 Oct 2037 07:28:00 GMT", "r", true)
	f.Add(uint16(429), []byte(`{"code":"RATE_LIMITED"}`), "7", "", false)
	f.Add(uint16(503), []byte(""), "-1", "", true)
	f.Fuzz(func(t *testing.T, code uint16, body []byte, retryAfter, requestID string, announced bool) {
		status := 400 + int(code%200)
		h := http.Header{}
		h.Set("Retry-After", retryAfter)
		h.Set("X-Request-Id", requestID)
		e, _ := fuzzSend(t, fuzzResponse(status, body, announced, h), nil).(*APIError)
		if e == nil {
			t.Fatal("no *APIError for a non-2xx response")
		}
		scrub := func(s string) string {
			return strings.ReplaceAll(strings.ReplaceAll(s, fuzzKey, redacted), fuzzScrub, redacted)
		}
		if e.StatusCode != status || e.Method != fuzzMethod || e.Path != fuzzPath || e.RequestID != scrub(h.Get("X-Request-Id")) {
			t.Fatalf("the error does not describe the response: %+v", *e)
		}

		if e.RetryAfter < 0 || e.RetryAfter > pipeline.MaxRetryAfter {
			t.Fatalf("RetryAfter = %v for Retry-After %q", e.RetryAfter, retryAfter)
		}
		if secs, err := strconv.ParseInt(strings.TrimSpace(h.Get("Retry-After")), 10, 64); err == nil {
			want := time.Duration(0)
			if secs > 0 {
				want = time.Duration(min(secs, int64(pipeline.MaxRetryAfter/time.Second))) * time.Second
			}
			if e.RetryAfter != want {
				t.Fatalf("RetryAfter = %v for Retry-After %q, want %v", e.RetryAfter, retryAfter, want)
			}
		}

		// cut is what a field keeps: maxFieldRunes runes, then an ellipsis.
		cut := func(s string) string {
			if r := []rune(s); len(r) > maxFieldRunes {
				return string(r[:maxFieldRunes]) + "…"
			}
			return s
		}
		var fields struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Details string `json:"details"`
		}
		err := json.Unmarshal(body, &fields)
		var typeErr *json.UnmarshalTypeError
		if (err == nil || errors.As(err, &typeErr)) && fields.Code+fields.Message+fields.Details != "" {
			want := [3]string{cut(scrub(fields.Code)), cut(scrub(fields.Message)), cut(scrub(fields.Details))}
			if got := [3]string{e.Code, e.Message, e.Details}; got != want {
				t.Fatalf("code, message, details = %q, want %q", got, want)
			}
		} else {
			if e.Code != "" || e.Details != "" {
				t.Fatalf("Code %q and Details %q from a body without them", e.Code, e.Details)
			}
			if want := fuzzTextStart([]byte(scrub(string(body)))); e.Message != want {
				t.Fatalf("Message = %q (%d runes)\nwant      %q (%d runes)", e.Message, utf8.RuneCountInString(e.Message), want, utf8.RuneCountInString(want))
			}
			if n := utf8.RuneCountInString(e.Message); n > errorMessageRunes {
				t.Fatalf("Message has %d runes of the body, the bound is %d: %q", n, errorMessageRunes, e.Message)
			}
		}

		msg := e.Error()
		for _, secret := range []string{fuzzKey, fuzzScrub} {
			for i, s := range []string{e.Code, e.Message, e.Details, msg} {
				if strings.Contains(s, secret) {
					t.Fatalf("%s contains the secret %q: %q", [...]string{"Code", "Message", "Details", "Error()"}[i], secret, s)
				}
			}
		}
		if !strings.HasPrefix(msg, fmt.Sprintf("dbcloud: GET /p: %d ", status)) {
			t.Fatalf("unexpected Error() %q", msg)
		}
	})
}

// fuzzTextStart is what apiError keeps of a non-JSON body, written
// independently of textStart: the body's printable, non-space runes (an
// invalid byte is U+FFFD), each run of others collapsed to one space and none
// at either end, cut to errorMessageRunes runes.
func fuzzTextStart(body []byte) string {
	words := strings.FieldsFunc(string(body), func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) })
	runes := []rune(strings.Join(words, " "))
	if len(runes) > errorMessageRunes {
		runes = runes[:errorMessageRunes]
	}
	return strings.TrimRight(string(runes), " ")
}
