package dbcloudtest

import "time"

// serviceView returns the service with this id, in any project, encoded as a
// GET of it would return it now. ok is false when there is no such service.
func (a *engine) serviceView(serviceID string) (body []byte, ok bool) {
	err := a.withService(serviceID, func(s *service, now time.Time) error {
		body = wireJSON(s.view(now, s.sched.current(now)))
		return nil
	})
	return body, err == nil
}

// servicesView returns every service of every project as a JSON array,
// newest first, each as a GET of it would return it now.
func (a *engine) servicesView() (body []byte) {
	_ = a.helper(func(now time.Time) error {
		out := make([]serviceJSON, 0, len(a.services))
		for i := len(a.services) - 1; i >= 0; i-- {
			s := a.services[i]
			out = append(out, s.view(now, s.sched.current(now)))
		}
		body = wireJSON(out)
		return nil
	})
	return body
}
