package dbcloudtest

// ResetRequests forgets the requests the server has seen so far, for Count
// and Requests, so that a test that sets the state up through the API (a
// service created and made READY) can then count exactly what the step
// under test sends, with Count(method, path) == n, instead of subtracting
// counts taken before. The state of the model, the faults armed and the
// clock do not change. A request in flight when ResetRequests runs is not
// counted afterwards.
func (s *Server) ResetRequests() { s.api.resetCounts() }
