package dbcloudtest

// Request is one request the server has seen.
type Request struct {
	Method string
	// Path is the escaped path after /v1, as Fault.Path matches it:
	// "/projects/proj-fake/services/a1b2c3".
	Path string
	// Query is the raw query string, without "?": "severities=ERROR".
	Query string
	// Status is the status the server sent; 0 while the request is in flight,
	// and when no answer was sent (a Drop fault, or a Delay its client gave
	// up on).
	Status int
}

type countKey struct{ method, path string }

// recorder keeps what the server has seen: a count of every request, by
// method and escaped path, faulted and failed ones included, and, unless
// off (WithRequestLog(false)), every request with the status sent.
type recorder struct {
	off    bool
	counts map[countKey]int
	log    []Request
	base   int // sequence number of log[0]: reset moves it on
}

// arrive counts a request and records it, and returns its sequence number
// for answered (-1 when requests are not recorded).
func (rec *recorder) arrive(method, path, query string) int {
	if rec.counts == nil {
		rec.counts = make(map[countKey]int)
	}
	rec.counts[countKey{method, path}]++
	if rec.off {
		return -1
	}
	rec.log = append(rec.log, Request{Method: method, Path: path, Query: query})
	return rec.base + len(rec.log) - 1
}

// answered records the status of request seq, unless reset forgot it
// meanwhile.
func (rec *recorder) answered(seq, status int) {
	if i := seq - rec.base; seq >= 0 && i >= 0 {
		rec.log[i].Status = status
	}
}

// count returns how many requests had this method ("" for any) and an
// escaped path matching pattern (as Fault.Path).
func (rec *recorder) count(method, pattern string) int {
	n := 0
	for k, c := range rec.counts {
		if (method == "" || k.method == method) && pathMatches(pattern, k.path) {
			n += c
		}
	}
	return n
}

// requests returns every request recorded since the start or the last
// reset, in the order they arrived.
func (rec *recorder) requests() []Request { return append([]Request(nil), rec.log...) }

// reset forgets the requests seen so far.
func (rec *recorder) reset() {
	clear(rec.counts)
	rec.base += len(rec.log)
	rec.log = nil
}
