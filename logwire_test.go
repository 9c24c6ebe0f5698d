package dbcloud_test

import (
	"errors"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/jarcoal/httpmock"
)

// A page of 350,000 entries in 1 MiB (the API sends at most 500) is a
// malformed answer, refused before its entries are decoded: the read
// allocates about the body, not 350,000 entries (some 20 MiB and more).
func TestLogsPageOverTheLimitIsRefusedUndecoded(t *testing.T) {
	for _, field := range []string{"entries", "logs"} {
		t.Run(field, func(t *testing.T) {
			c, mt := mockClient(t, dbcloud.WithRetryMax(0))
			elem := `{}`
			if field == "logs" {
				elem = `""`
			}
			body := `{"` + field + `":[` + strings.Repeat(elem+",", 349_999) + elem + `]}`
			mt.RegisterResponder(http.MethodGet, mockBase+"/projects/p/services/s/logs", httpmock.NewStringResponder(200, body))

			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			page, err := c.Services.ListLogs(t.Context(), "p", "s", nil)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, dbcloud.ErrInvalidResponse) || !strings.Contains(err.Error(), "more than 500 entries") {
				t.Fatalf("ListLogs = %d entries, %v; want an error matching ErrInvalidResponse naming the limit", entriesOf(page), err)
			}
			if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(6*len(body)); got > limit {
				t.Errorf("reading the page allocated %d bytes, want at most %d (6x the %d-byte body)", got, limit, len(body))
			}
		})
	}
}

// A page of exactly 500 entries, with commas and brackets inside the
// strings, is a page.
func TestLogsPageAtTheLimitIsDecoded(t *testing.T) {
	c, mt := mockClient(t)
	e := `{"timestamp":"2026-03-04T05:06:07Z","severity":"LOG","message":"a, [b], {c}, \"d,\" e\\"}`
	body := `{"entries":[` + strings.Repeat(e+",", 499) + e + `],"last_cursor":"c"}`
	mt.RegisterResponder(http.MethodGet, mockBase+"/projects/p/services/s/logs", httpmock.NewStringResponder(200, body))
	page, err := c.Services.ListLogs(t.Context(), "p", "s", nil)
	if err != nil || len(page.Entries) != 500 || page.Entries[499].Message != `a, [b], {c}, "d," e\` {
		t.Fatalf("ListLogs = %d entries, %v; want 500", entriesOf(page), err)
	}
}

func entriesOf(p *dbcloud.LogPage) int {
	if p == nil {
		return 0
	}
	return len(p.Entries)
}
