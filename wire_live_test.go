package dbcloud_test

import (
	"context"
	"net/http"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// liveWireCases are the exchanges of the operations beyond the first 23:
// identity, projects, renames, VPCs, peerings and metrics. TestWireOperations
// runs them with the others.
func liveWireCases() []wireCase {
	const (
		vpcs     = "/projects/proj-1/vpcs"
		vpc      = vpcs + "/12345"
		peerings = vpc + "/peerings"
		peering  = peerings + "/pcx-7"
		svc      = "/projects/proj-1/services/svc-1"
	)
	vpcJSON := `{"id":"12345","name":"private","cidr":"10.0.0.0/16","region_code":"us-east-1"}`
	vpcWant := &dbcloud.VPC{ID: "12345", Name: "private", CIDR: "10.0.0.0/16", RegionCode: "us-east-1"}
	peeringJSON := `{"id":"pcx-7","peer_account_id":"000011112222","peer_region_code":"eu-central-1","peer_vpc_id":"vpc-0a1b",` +
		`"status":"pending","provisioned_id":"pcx-0f9e8d"}`
	peeringWant := &dbcloud.Peering{ID: "pcx-7", PeerAccountID: "000011112222", PeerRegionCode: "eu-central-1", PeerVPCID: "vpc-0a1b",
		Status: dbcloud.PeeringPending, ProvisionedID: "pcx-0f9e8d"}
	renamed := wireSvc("svc-1", "orders-v2", dbcloud.StatusReady)
	from := time.Date(2026, 11, 22, 9, 0, 0, 0, time.FixedZone("CET", 3600))
	apiKeyJSON := `{"public_key":"pk-1","name":"ci","created":"2026-11-01T10:00:00Z",` +
		`"project":{"id":"proj-1","name":"Prod","plan_type":"FREE"},"issuing_user":{"id":"42","name":"Ada","email":"ada@example.com"}}`
	apiKeyWant := &dbcloud.AuthInfo{Kind: dbcloud.AuthKindAPIKey, APIKey: &dbcloud.APIKeyInfo{
		PublicKey: "pk-1", Name: "ci", Created: time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC),
		Project:     dbcloud.Project{ID: "proj-1", Name: "Prod", PlanType: "FREE"},
		IssuingUser: dbcloud.User{ID: "42", Name: "Ada", Email: "ada@example.com"},
	}}
	return []wireCase{
		{
			name: "auth/Info/apiKey", method: http.MethodGet, path: "/auth/info",
			status: http.StatusOK, respBody: `{"type":"apiKey","api_key":` + apiKeyJSON + `}`,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) { return c.AuthInfo(ctx) },
			want: apiKeyWant,
		},
		{
			name: "auth/Info/deprecated apiKey", method: http.MethodGet, path: "/auth/info",
			status: http.StatusOK, respBody: `{"type":"apiKey","apiKey":` + apiKeyJSON + `}`,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) { return c.AuthInfo(ctx) },
			want: apiKeyWant,
		},
		{
			name: "auth/Info/oauth", method: http.MethodGet, path: "/auth/info",
			status:   http.StatusOK,
			respBody: `{"type":"oauth","oauth":{"user":{"id":"42","name":"Ada","email":"ada@example.com"}}}`,
			call:     func(ctx context.Context, c *dbcloud.Client) (any, error) { return c.AuthInfo(ctx) },
			want:     &dbcloud.AuthInfo{Kind: dbcloud.AuthKindOAuth, User: &dbcloud.User{ID: "42", Name: "Ada", Email: "ada@example.com"}},
		},
		{
			name: "projects/List", method: http.MethodGet, path: "/projects",
			status:   http.StatusOK,
			respBody: `[{"id":"proj-1","name":"Prod"},{"id":"proj-2","name":"Staging"}]`,
			call:     func(ctx context.Context, c *dbcloud.Client) (any, error) { return c.Projects.List(ctx) },
			want:     []dbcloud.Project{{ID: "proj-1", Name: "Prod"}, {ID: "proj-2", Name: "Staging"}},
		},
		{
			name: "services/Rename", method: http.MethodPost, path: svc + "/rename",
			status: http.StatusOK, respBody: wireSvcJSON("svc-1", "orders-v2", "READY", ""),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Services.Rename(ctx, "proj-1", "svc-1", "orders-v2")
			},
			wantBody: map[string]any{"name": "orders-v2"},
			want:     renamed,
		},
		{
			name: "vpcs/List", method: http.MethodGet, path: vpcs,
			status: http.StatusOK, respBody: "[" + vpcJSON + `,{"id":"67890","name":"other","cidr":"10.1.0.0/24","region_code":"eu-west-1"}]`,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) { return c.VPCs.List(ctx, "proj-1") },
			want: []dbcloud.VPC{*vpcWant, {ID: "67890", Name: "other", CIDR: "10.1.0.0/24", RegionCode: "eu-west-1"}},
		},
		{
			name: "vpcs/Create", method: http.MethodPost, path: vpcs,
			status: http.StatusCreated, respBody: vpcJSON,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.VPCs.Create(ctx, "proj-1", &dbcloud.CreateVPCRequest{Name: "private", CIDR: "10.0.0.0/16", RegionCode: "us-east-1"})
			},
			wantBody: map[string]any{"name": "private", "cidr": "10.0.0.0/16", "region_code": "us-east-1"},
			want:     vpcWant,
		},
		{
			name: "vpcs/Get", method: http.MethodGet, path: vpc,
			status: http.StatusOK, respBody: vpcJSON,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) { return c.VPCs.Get(ctx, "proj-1", "12345") },
			want: vpcWant,
		},
		{
			name: "vpcs/Delete", method: http.MethodDelete, path: vpc,
			status: http.StatusNoContent,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return nil, c.VPCs.Delete(ctx, "proj-1", "12345")
			},
		},
		{
			name: "vpcs/Rename", method: http.MethodPost, path: vpc + "/rename",
			status: http.StatusOK, respBody: `{"message":"VPC renamed"}`,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return nil, c.VPCs.Rename(ctx, "proj-1", "12345", "private-2")
			},
			wantBody: map[string]any{"name": "private-2"},
		},
		{
			name: "peerings/List", method: http.MethodGet, path: peerings,
			status: http.StatusOK,
			respBody: "[" + peeringJSON + `,{"id":"pcx-8","peer_account_id":"1","peer_region_code":"us-west-2","peer_vpc_id":"vpc-9",` +
				`"status":"failed","error_message":"CIDR overlap"}]`,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Peerings.List(ctx, "proj-1", "12345")
			},
			want: []dbcloud.Peering{*peeringWant, {ID: "pcx-8", PeerAccountID: "1", PeerRegionCode: "us-west-2", PeerVPCID: "vpc-9",
				Status: dbcloud.PeeringFailed, ErrorMessage: "CIDR overlap"}},
		},
		{
			name: "peerings/Create", method: http.MethodPost, path: peerings,
			status: http.StatusCreated, respBody: peeringJSON,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Peerings.Create(ctx, "proj-1", "12345", &dbcloud.CreatePeeringRequest{
					PeerAccountID: "000011112222", PeerRegionCode: "eu-central-1", PeerVPCID: "vpc-0a1b",
				})
			},
			wantBody: map[string]any{"peer_account_id": "000011112222", "peer_region_code": "eu-central-1", "peer_vpc_id": "vpc-0a1b"},
			want:     peeringWant,
		},
		{
			name: "peerings/Get", method: http.MethodGet, path: peering,
			status: http.StatusOK, respBody: peeringJSON,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Peerings.Get(ctx, "proj-1", "12345", "pcx-7")
			},
			want: peeringWant,
		},
		{
			name: "peerings/Delete", method: http.MethodDelete, path: peering,
			status: http.StatusNoContent,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return nil, c.Peerings.Delete(ctx, "proj-1", "12345", "pcx-7")
			},
		},
		{
			name: "metrics/ListSeries", method: http.MethodGet, path: svc + "/metrics/available-series",
			status:   http.StatusOK,
			respBody: `["timescale_cloud_system_cpu_usage_millicores","timescale_cloud_database_qps"]`,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Metrics.ListSeries(ctx, "proj-1", "svc-1")
			},
			want: []string{"timescale_cloud_system_cpu_usage_millicores", "timescale_cloud_database_qps"},
		},
		{
			name: "metrics/Query/every field", method: http.MethodPost, path: svc + "/metrics/series",
			status: http.StatusOK,
			respBody: `[{"labels":{"role":"primary","ordinal":"0"},"data":[` +
				`{"time":"2026-11-22T08:00:00Z","value":12.5},{"time":"2026-11-22T08:05:00Z","value":null},{"time":"2026-11-22T08:10:00Z","value":0}]}]`,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Metrics.Query(ctx, "proj-1", "svc-1", &dbcloud.MetricsQuery{
					Series: "timescale_cloud_database_connections", From: from, To: from.Add(15*time.Minute + 500*time.Millisecond),
					Bucket: 5 * time.Minute, Aggregation: dbcloud.AggMax,
					Filters: []dbcloud.MetricFilter{{Key: "role", Value: "primary"}},
				})
			},
			wantBody: map[string]any{
				"name": "timescale_cloud_database_connections", "from": "2026-11-22T08:00:00Z", "to": "2026-11-22T08:15:00.5Z",
				"bucket_seconds": float64(300), "fn": "MAX", "filters": []any{map[string]any{"key": "role", "value": "primary"}},
			},
			want: []dbcloud.MetricSeries{{
				Labels: map[string]string{"role": "primary", "ordinal": "0"},
				Points: []dbcloud.MetricPoint{
					{Time: time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC), Value: 12.5, Valid: true},
					{Time: time.Date(2026, 11, 22, 8, 5, 0, 0, time.UTC)},
					{Time: time.Date(2026, 11, 22, 8, 10, 0, 0, time.UTC), Value: 0, Valid: true},
				},
			}},
		},
		{
			name: "metrics/Query/minimal", method: http.MethodPost, path: svc + "/metrics/series",
			status: http.StatusOK, respBody: `[]`,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Metrics.Query(ctx, "proj-1", "svc-1", &dbcloud.MetricsQuery{
					Series: "timescale_cloud_database_qps", From: from, To: from.Add(time.Hour),
				})
			},
			wantBody: map[string]any{"name": "timescale_cloud_database_qps", "from": "2026-11-22T08:00:00Z", "to": "2026-11-22T09:00:00Z"},
			want:     []dbcloud.MetricSeries{},
		},
	}
}
