package dbcloudtest

// arrive counts a request, records it when requests are recorded (not WithRequestLog(false)),
// and returns the fault that answers it, if any, and its sequence number
// for answered.
func (a *engine) arrive(method, path, query string) (*Fault, int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.counts[countKey{method, path}]++
	seq := -1
	if !a.noLog {
		seq = a.logBase + len(a.log)
		a.log = append(a.log, Request{Method: method, Path: path, Query: query})
	}
	return a.takeFault(method, path), seq
}

// answered records the status of request seq, before its first byte is
// written: a client that has its answer finds it in requestLog.
func (a *engine) answered(seq, status int) {
	if seq < 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if i := seq - a.logBase; i >= 0 { // else forgotten by resetCounts meanwhile
		a.log[i].Status = status
	}
}

// requestLog returns every request seen since newEngine or the last resetCounts, in
// the order they arrived. It is empty unless requests are recorded (not WithRequestLog(false)).
func (a *engine) requestLog() []Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Request(nil), a.log...)
}
