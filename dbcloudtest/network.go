package dbcloudtest

import (
	"errors"
	"time"
)

// A VPC peering connection is requested through the API and answered on
// the peer's side, in the peer's cloud account, which no API request
// reaches: it stays pending until the test answers for the peer with
// AcceptPeering or FailPeering, as a person in that account would, after
// any number of reads, or, on a server made WithPeerAcceptance, until the
// peer's side accepts it by itself.

// WithPeerAcceptance has the peer's side accept every new peering
// connection after d on the server's clock, as an account that accepts
// requests automatically would, for code under test the test cannot
// reach into to call AcceptPeering (a command's main that waits for its
// peerings): the create's answer shows pending, and a read d or more
// later active, so with 0 the next read does (as WithStep(0) does for
// services). AcceptPeering and FailPeering answer a connection still
// pending sooner. Without it, a connection stays pending until one of
// them is called. It panics if d is negative.
func WithPeerAcceptance(d time.Duration) Option {
	if d < 0 {
		panic("dbcloudtest: WithPeerAcceptance: negative duration " + d.String())
	}
	return func(c *config) { c.api.Model.PeerAccept = &d }
}

// AcceptPeering accepts a pending peering connection, found by id in any
// VPC of any project, as the peer's side does: its status is active from
// the next read on. It is an error when there is no such connection, or
// it is not pending.
func (s *Server) AcceptPeering(peeringID string) error {
	return s.model.AnswerPeering(peeringID, "")
}

// FailPeering fails a pending peering connection, found as AcceptPeering
// finds it: its status is failed and its error_message is message from the
// next read on, as when the peer's side rejects the request or it expires.
// It is an error when there is no such connection, it is not pending, or
// message is empty.
func (s *Server) FailPeering(peeringID, message string) error {
	if message == "" {
		return errors.New("dbcloudtest: FailPeering: empty message")
	}
	return s.model.AnswerPeering(peeringID, message)
}
