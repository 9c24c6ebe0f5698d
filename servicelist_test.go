package dbcloud_test

import (
	"net/http"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/google/go-cmp/cmp"
)

// tinyServicesBody is a list of about size bytes of minimal services, each
// a distinct {"service_id":"sN"}, and how many it holds.
func tinyServicesBody(size int) ([]byte, int) {
	b := append(make([]byte, 0, size+64), '[')
	n := 0
	for len(b) < size-32 {
		if n > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"service_id":"s`...)
		b = strconv.AppendInt(b, int64(n), 36)
		b = append(b, `"}`...)
		n++
	}
	return append(b, ']'), n
}

// TestListTinyServicesMemory lists 512 KiB of minimal services (2 MiB gave
// the same ratio in three times the time under -race), the case where
// a decoded Service (240 bytes) is largest against its bytes on the wire,
// and bounds what the call allocates, the response's body included: at most
// 16 times the body. With the collector off for the call, nothing is
// freed, so what it allocates bounds its heap peak; the count is of bytes,
// not time, and holds on a loaded machine. Decoding through a grown slice
// of the wire type and copying it into []Service allocated some 70 times
// the body.
func TestListTinyServicesMemory(t *testing.T) {
	body, n := tinyServicesBody(512 << 10)
	srv := benchServer(t, benchResponder(http.MethodGet,
		"/v1/projects/"+benchProject+"/services", http.StatusOK, body))
	c := benchSDK(t, srv)
	ctx := t.Context()
	if _, err := c.Services.List(ctx, benchProject); err != nil { // a warm connection
		t.Fatal(err)
	}

	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	list, err := c.Services.List(ctx, benchProject)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != n || list[0].ServiceID != "s0" || list[n-1].ServiceID != "s"+strconv.FormatInt(int64(n-1), 36) {
		t.Fatalf("got %d services, want %d, s0 first", len(list), n)
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	ratio := float64(allocated) / float64(len(body))
	t.Logf("%d services in %s: the call allocated %s, %.1fx the body", n, formatMiB(int64(len(body))), formatMiB(int64(allocated)), ratio)
	if ratio > 16 {
		t.Errorf("listing %s of minimal services allocated %.1fx the body, want at most 16x", formatMiB(int64(len(body))), ratio)
	}
	runtime.KeepAlive(list)
}

// TestListTinyServicesLegacyVPC checks the other decoding of a list, the one
// used when an element may carry the deprecated vpcEndpoint: the fallback
// applies to the element that has it, and only to it.
func TestListTinyServicesLegacyVPC(t *testing.T) {
	t.Parallel()
	body := []byte(`[{"service_id":"s1"},{"service_id":"s2","VPCENDPOINT":{"host":"h","port":5432,"vpc_id":"v"}},{"service_id":"s3","vpc_endpoint":{"host":"new","port":1,"vpc_id":"w"},"vpcEndpoint":{"host":"old"}},{"service_id":"s4","vpc\u0045ndpoint":{"host":"esc"}}]`)
	srv := benchServer(t, benchResponder(http.MethodGet,
		"/v1/projects/"+benchProject+"/services", http.StatusOK, body))
	list, err := benchSDK(t, srv).Services.List(t.Context(), benchProject)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*dbcloud.VPCEndpoint{}
	for _, s := range list {
		got[s.ServiceID] = s.VPCEndpoint
	}
	want := map[string]*dbcloud.VPCEndpoint{
		"s1": nil,
		"s2": {Host: "h", Port: 5432, VPCID: "v"},
		"s3": {Host: "new", Port: 1, VPCID: "w"},
		"s4": {Host: "esc"},
	}
	if d := cmp.Diff(want, got); d != "" || len(list) != 4 {
		t.Errorf("%d services; VPC endpoints by service (-want +got):\n%s", len(list), d)
	}
}
