package dbcloud_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
)

// A peering waited from pending, end to end on dbcloudtest, the peer's
// side answering between two polls on the fake's clock or by its hand:
// accepted, the wait returns it active; failed, it returns it with its
// message and an error matching ErrPeeringFailed; either way the fake
// holds it as the wait returned it.
func TestFakePeeringWait(t *testing.T) {
	t.Parallel()
	const message = "the peer account rejected the request"
	for _, tt := range []struct {
		name   string
		opts   []dbcloudtest.Option
		answer func(srv *dbcloudtest.Server, id string) error // the peer's side, after the first poll
		want   dbcloud.PeeringStatus
	}{
		{"accepted on the peer's side", nil,
			func(srv *dbcloudtest.Server, id string) error { return srv.AcceptPeering(id) }, dbcloud.PeeringActive},
		{"accepted by itself an hour later", []dbcloudtest.Option{dbcloudtest.WithPeerAcceptance(time.Hour)},
			func(srv *dbcloudtest.Server, _ string) error { srv.Advance(time.Hour); return nil }, dbcloud.PeeringActive},
		{"failed on the peer's side", nil,
			func(srv *dbcloudtest.Server, id string) error { return srv.FailPeering(id, message) }, dbcloud.PeeringFailed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, srv := fixture.NewFake(t, tt.opts)
			ctx, p := t.Context(), srv.ProjectID
			vpc, created := vpcWithPeering(t, c, p, "private", "10.0.0.0/16", dbcloud.CreatePeeringRequest{PeerAccountID: "123456789012", PeerRegionCode: "eu-central-1", PeerVPCID: "vpc-0a1b"})
			var seen []dbcloud.WaitStatus
			progress := dbcloud.WithProgress(func(pr dbcloud.WaitProgress) {
				seen = append(seen, pr.Status)
				if len(seen) == 1 {
					if err := tt.answer(srv, created.ID); err != nil {
						t.Error(err)
					}
				}
			})
			got, err := c.Peerings.WaitForActive(ctx, p, vpc.ID, created.ID, fixture.FastPolls, dbcloud.WithWaitTimeout(time.Minute), progress)
			if len(seen) != 2 || seen[0] != dbcloud.PeeringPending || seen[1] != tt.want {
				t.Errorf("statuses seen %v, want pending, then %s", seen, tt.want)
			}
			if got == nil || got.ID != created.ID || got.Status != tt.want {
				t.Fatalf("WaitForActive = %+v, %v; want the peering %s", got, err, tt.want)
			}
			held, herr := c.Peerings.Get(ctx, p, vpc.ID, created.ID)
			if herr != nil || *held != *got {
				t.Errorf("the fake holds %+v (%v), the wait returned %+v", held, herr, got)
			}
			if tt.want == dbcloud.PeeringActive {
				if err != nil || got.ErrorMessage != "" {
					t.Errorf("WaitForActive = %+v, %v; want it active, no error", got, err)
				}
				return
			}
			var w *dbcloud.WaitError
			if !errors.As(err, &w) || !errors.Is(err, dbcloud.ErrPeeringFailed) || errors.Is(err, dbcloud.ErrNotFound) {
				t.Fatalf("err = %v, want a *WaitError matching ErrPeeringFailed", err)
			}
			if got.ErrorMessage != message || !strings.Contains(err.Error(), message) || w.ID != created.ID || w.LastStatus != string(dbcloud.PeeringFailed) {
				t.Errorf("err = %v (%+v), peering %+v; want the failure's message in both", err, w, got)
			}
		})
	}
}

// A peering nobody answers is still pending when the wait's timeout ends
// it: a *WaitError matching context.DeadlineExceeded, last seen pending.
// The fake's clock does not move, so the wait polls until its timeout. The
// wait runs in a synctest bubble (see bubbleTransport): its first poll,
// which LastStatus needs, comes before the 50 ms are up however loaded the
// machine.
func TestFakePeeringWaitTimesOutPending(t *testing.T) {
	t.Parallel()
	c, srv := fixture.NewFake(t, nil)
	p := srv.ProjectID
	vpc, created := vpcWithPeering(t, c, p, "private", "10.0.0.0/16", dbcloud.CreatePeeringRequest{PeerAccountID: "1", PeerRegionCode: "us-east-1", PeerVPCID: "vpc-1"})
	base := newBubbleTransport(t, srv.Handler())
	synctest.Test(t, func(t *testing.T) {
		c := srv.Client(fixture.TinyRetries, dbcloud.WithHTTPClient(&http.Client{Transport: base}))
		_, err := c.Peerings.WaitForActive(t.Context(), p, vpc.ID, created.ID, fixture.FastPolls, dbcloud.WithWaitTimeout(50*time.Millisecond))
		var w *dbcloud.WaitError
		if !errors.As(err, &w) || !errors.Is(err, context.DeadlineExceeded) || w.LastStatus != string(dbcloud.PeeringPending) {
			t.Errorf("err = %v, want a *WaitError matching DeadlineExceeded, last pending", err)
		}
	})
}
