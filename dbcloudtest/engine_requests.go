package dbcloudtest

// arrive counts a request, records it when Options.RecordRequests is set,
// and returns the fault that answers it, if any, and its sequence number
// for answered.
func (a *engine) arrive(method, path, query string) (*Fault, int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.counts[countKey{method, path}]++
	seq := -1
	if a.recording {
		seq = a.logBase + len(a.log)
		a.log = append(a.log, Request{Method: method, Path: path, Query: query})
	}
	return a.takeFault(method, path), seq
}

// answered records the status of request seq, before its first byte is
// written: a client that has its answer finds it in Requests.
func (a *engine) answered(seq, status int) {
	if seq < 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if i := seq - a.logBase; i >= 0 { // else forgotten by ResetCounts meanwhile
		a.log[i].Status = status
	}
}

// requestLog returns every request seen since New or the last ResetCounts, in
// the order they arrived. It is empty unless Options.RecordRequests is set.
func (a *engine) requestLog() []Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Request(nil), a.log...)
}
