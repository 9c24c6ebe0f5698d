// Package pipeline sends the API's requests: it owns everything between an
// operation that has built a request and the bytes on the wire, and back.
//
// It owns the attempt loop (go-retryablehttp runs the attempts; a per-call
// value supplies its hooks), the retry policy (Policy.Decide, one pure
// function), the time an attempt may take (Policy.AttemptTimeout), the
// client-wide retry budget, the credentials on the wire (the Authorization
// header, sent only to the API's host, and a token refreshed after a 401),
// the redirect policy, and reading an answer within its size bound. It
// hands back a Result: what the attempts came to, for the operation to
// decide what it means.
//
// It must not know what it sends: no service, replica set, path template
// or JSON shape of the API, and none of the root package's public types
// (errors, observers, options). Decoding is the caller's Request.Decode,
// called on the way back; what a failed call means to its user (an
// *APIError, ErrMaybeCreated, a reconciled retry) is decided above it.
// The rule it applies is stated for users once, under "Retries" in the
// root package's documentation.
package pipeline
