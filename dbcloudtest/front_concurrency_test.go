package dbcloudtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/httpapi"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

// TestConcurrency drives every part of the fake from many goroutines; run it
// with -race.
func TestConcurrency(t *testing.T) {
	f := newFake(t, config{api: httpapi.Config{Model: model.Config{Step: time.Second}}})
	client := f.Srv.Client()
	// do reports with t.Error only: it runs outside the test goroutine.
	do := func(method, path, body string) (int, []byte) {
		req, _ := http.NewRequest(method, f.Base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+f.Key)
		req.Header.Set("Content-Type", "application/json")
		res, err := client.Do(req)
		if err != nil {
			t.Error(err)
			return 0, nil
		}
		defer res.Body.Close()
		raw, err := io.ReadAll(res.Body)
		if err != nil {
			t.Error(err)
		}
		return res.StatusCode, raw
	}
	const workers, each = 16, 10
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				name := fmt.Sprintf(`{"name": "w%d-%d"}`, w, i)
				if st, _ := do("POST", f.ServicesPath(), name); st != 202 {
					t.Errorf("create: %d", st)
				}
				do("GET", f.ServicesPath(), "")
				f.Clock.Advance(100 * time.Millisecond)
				f.api.count("POST", "/projects/*/services")
			}
		})
	}
	wg.Go(func() {
		for range each {
			f.api.injectFault(Fault{Path: "/nothing", Status: 500})
			f.api.resetCounts()
			var list []struct {
				ID string `json:"service_id"`
			}
			if _, raw := do("GET", f.ServicesPath(), ""); json.Unmarshal(raw, &list) != nil {
				t.Errorf("list: %s", raw)
			}
			for _, s := range list[:min(len(list), 8)] {
				id := s.ID
				_ = f.model.SeedLogs(id, 10)
				_, _ = f.model.Logs(id)
				do("GET", f.SvcPath(id)+"/logs?search=checkpoint", "")
				do("POST", f.SvcPath(id)+"/enablePooler", "")
			}
		}
	})
	wg.Wait()
	if n := len(f.Send("GET", f.ServicesPath(), nil).List(t)); n != workers*each {
		t.Errorf("%d services, want %d", n, workers*each)
	}
}
