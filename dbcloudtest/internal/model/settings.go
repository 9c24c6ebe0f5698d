package model

import (
	"strconv"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/live"
)

// The operations on a service that take effect at once, in any status but
// DELETING and DELETED. Each runs inside Update, with a body already
// checked.

// SwitchPooler turns the service's connection pooler on or off; its
// endpoint opens when it is first turned on.
func (m *Model) SwitchPooler(s *Service, now time.Time, on bool) error {
	if err := needAlive(s, now, "changing the pooler"); err != nil {
		return err
	}
	open := func() (*live.Endpoint, error) { return m.openServiceEndpoint(s, true) }
	if err := s.pooler.turn(on, "connection pooler", open); err != nil {
		return err
	}
	s.logs.Event(now, "connection pooler "+OnOff(on))
	return nil
}

// AttachVPC attaches the service, attached to none, to a VPC.
func (s *Service) AttachVPC(now time.Time, vpc string) error {
	if err := needAlive(s, now, "attachToVPC"); err != nil {
		return err
	}
	if s.vpcID != "" {
		return apierr.Conflict("service is already attached to VPC "+s.vpcID, "vpc_id "+s.vpcID)
	}
	s.vpcID = vpc
	s.logs.Event(now, "attached to VPC "+vpc)
	return nil
}

// DetachVPC detaches the service from the VPC it is attached to.
func (s *Service) DetachVPC(now time.Time, vpc string) error {
	if err := needAlive(s, now, "detachFromVPC"); err != nil {
		return err
	}
	if s.vpcID != vpc {
		return apierr.Conflict("service is not attached to VPC "+vpc, "attached vpc_id "+strconv.Quote(s.vpcID))
	}
	s.vpcID = ""
	s.logs.Event(now, "detached from VPC "+vpc)
	return nil
}

// Rename gives the service a new name.
func (s *Service) Rename(now time.Time, name string) error {
	if err := needAlive(s, now, "rename"); err != nil {
		return err
	}
	s.name = name
	s.logs.Event(now, "service renamed to "+name)
	return nil
}

// ChangePassword records that the service's password changed. The new
// password is neither kept nor logged: only the fact of the change.
func (s *Service) ChangePassword(now time.Time) error {
	if err := needAlive(s, now, "updatePassword"); err != nil {
		return err
	}
	s.logs.Event(now, `password of role "tsdbadmin" changed`)
	return nil
}

// SetEnvironment tags the service DEV or PROD.
func (s *Service) SetEnvironment(now time.Time, env string) error {
	if err := needAlive(s, now, "setEnvironment"); err != nil {
		return err
	}
	s.env = env
	s.logs.Event(now, "environment set to "+env)
	return nil
}
