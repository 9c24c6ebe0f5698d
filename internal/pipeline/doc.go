// Package pipeline sends the API's requests: it owns everything between an
// operation that has built a request and the bytes on the wire, and back.
//
// It owns the attempt loop (go-retryablehttp runs the attempts; a per-call
// value supplies its hooks), the retry policy (Policy.Decide, one pure
// function), the time an attempt may take (Policy.AttemptTimeout, enforced
// by one timer per Client), the client-wide retry budget, the credentials
// on the wire (the Authorization header, sent only to the API's host, and a
// token refreshed after a 401), the redirect policy, and reading an answer
// within its size bound. It hands back a Result: what the attempts came to,
// for the operation to decide what it means.
//
// It must not know what it sends: no service, replica set, path template
// or JSON shape of the API, and none of the root package's public types
// (errors, observers, options). Decoding is the caller's Request.Decode,
// called on the way back; what a failed call means to its user (an
// *APIError, ErrMaybeCreated, a reconciled retry) is decided above it.
// The rule it applies is stated for users once, under "Retries" in the
// root package's documentation.
//
// # What it relies on go-retryablehttp doing
//
// A call (call.go) is go-retryablehttp's Client.Do with four of its hooks:
// RequestLogHook starts an attempt, the http.Client's transport sends it,
// CheckRetry reads what it came to, ends it and, when it failed, makes the
// attempt's one decision (a usable 2xx ends the call), and Backoff returns
// the wait decided with it. No ResponseHandler is set, so nothing else
// looks at an answer. That works because of what the library does, as of
// v0.7.8; each item names the test in retryablehttp_test.go that fails
// when a release stops doing it.
//
//  1. Per attempt, it calls RequestLogHook, then its HTTPClient's Do, then
//     CheckRetry once with what Do returned, the answer's body unread, even
//     when the request's context has ended, all on the goroutine that
//     called Client.Do; between two attempts it calls Backoff. The
//     attempt's context and its observer's state live in the call value
//     from one hook to the next, and the transport reads them.
//     (TestRetryablehttpCallsEachHookOncePerAttempt,
//     TestRetryablehttpChecksTheAttemptTheContextEnded)
//  2. Another attempt follows whenever CheckRetry says so, until RetryMax
//     retries have been made: RetryMax is math.MaxInt, so that the policy
//     alone counts; were the library to stop first, the last attempt's
//     report would promise a retry that never comes.
//     (TestRetryablehttpRetriesWhileCheckRetrySays)
//  3. It waits, before the next attempt, what Backoff returned: the policy
//     chooses the wait with the decision to retry (it depends on the
//     deadline and on a Retry-After), and Backoff hands it over.
//     (TestRetryablehttpWaitsWhatBackoffReturns)
//  4. When the request's context ends during that wait, Do returns the
//     context's error as it is, and calls no further hook. That error is
//     the only one of Do's that the call reads: CheckRetry has recorded
//     every attempt's own. (TestRetryablehttpReturnsTheContextErrorOfTheWait)
//  5. A []byte body is sent whole on every attempt, with a GetBody that
//     gives it again (the second send after a 401 uses it); an untyped nil
//     body is no body at all, where a typed []byte(nil) would give a GET a
//     chunked empty one. (TestRetryablehttpBodies)
//  6. A nil Logger logs nothing. Its default logger prints every request's
//     URL to stderr; attempts are reported through Request.Observe
//     instead. (TestRetryablehttpLogsNothing)
//  7. After a failed call it calls its HTTPClient's CloseIdleConnections,
//     which net/http passes on to a transport that has the method. The
//     call's transport has none: on a Client shared by many goroutines,
//     one failure would otherwise drop the pooled connections of all of
//     them. (TestFailureLeavesThePoolAlone)
package pipeline
