package dbcloud_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

// The live service's TIMESCALEDB and the document's TIMESERIESDB both decode
// as ServiceTypeTimeSeries, from every response that holds a service; other
// values are kept as sent.
func TestWireTimeSeriesSpellings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sent string
		want dbcloud.ServiceType
	}{
		{"TIMESCALEDB", dbcloud.ServiceTypeTimeSeries},
		{"TIMESERIESDB", dbcloud.ServiceTypeTimeSeries},
		{"POSTGRES", dbcloud.ServiceTypePostgres},
		{"timescaledb", "timescaledb"}, // not a spelling the API uses: kept
	} {
		t.Run(tc.sent, func(t *testing.T) {
			body := strings.Replace(serviceJSON, `"service_type":"POSTGRES"`, `"service_type":"`+tc.sent+`"`, 1)
			c, mt := mockClient(t)
			mt.RegisterResponder("GET", serviceURL, httpmock.NewStringResponder(http.StatusOK, body))
			mt.RegisterResponder("GET", servicesURL, httpmock.NewStringResponder(http.StatusOK, "["+body+","+body+"]"))
			mt.RegisterResponder("POST", servicesURL, httpmock.NewStringResponder(http.StatusAccepted, body))
			mt.RegisterResponder("POST", forkURL, httpmock.NewStringResponder(http.StatusAccepted, body))
			ctx := t.Context()
			var got []dbcloud.ServiceType
			if svc, err := c.Services.Get(ctx, "p1", "s1"); err != nil {
				t.Fatal(err)
			} else {
				got = append(got, svc.ServiceType)
			}
			list, err := c.Services.List(ctx, "p1")
			if err != nil {
				t.Fatal(err)
			}
			for _, svc := range list {
				got = append(got, svc.ServiceType)
			}
			if svc, err := c.Services.Create(ctx, "p1", &dbcloud.CreateServiceRequest{Name: "db"}); err != nil {
				t.Fatal(err)
			} else {
				got = append(got, svc.ServiceType)
			}
			if svc, err := c.Services.Fork(ctx, "p1", "s1", &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow}); err != nil {
				t.Fatal(err)
			} else {
				got = append(got, svc.ServiceType)
			}
			want := []dbcloud.ServiceType{tc.want, tc.want, tc.want, tc.want, tc.want}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ServiceType (-want +got):\n%s", diff)
			}
		})
	}
}
