package model

import "time"

// step is one planned status of a resource and the moment it begins.
type step struct {
	status string
	at     time.Time
}

// schedule is the status plan of a resource; the current status is the last
// step that has begun, so time alone moves resources along.
type schedule []step

func (s schedule) current(now time.Time) string { return s.currentStep(now).status }

// currentStep is the last step that has begun: the current status and
// since when it holds.
func (s schedule) currentStep(now time.Time) step {
	cur := s[0]
	for _, st := range s[1:] {
		if now.Before(st.at) {
			break
		}
		cur = st
	}
	return cur
}
