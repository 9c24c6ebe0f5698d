package dbcloud_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/jarcoal/httpmock"
)

// Every LogOptions field is used by the methods its doc names; set for any
// other method it is a *ValidationError naming it, before anything is sent.
func TestLogOptionsFieldsPerMethod(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	type use struct{ list, all, tail, follow bool }
	everywhere := use{true, true, true, true}
	for _, tc := range []struct {
		name  string
		opts  dbcloud.LogOptions
		field string // the field a refusal names
		use   use
	}{
		{"Cursor", dbcloud.LogOptions{Cursor: "c"}, "Cursor", use{list: true, all: true}},
		{"Node", dbcloud.LogOptions{Node: new(1)}, "Node", everywhere},
		{"Search", dbcloud.LogOptions{Search: []string{"checkpoint"}}, "Search", everywhere},
		{"Severities", dbcloud.LogOptions{Severities: []string{"ERROR"}}, "Severities", everywhere},
		{"MinSeverity", dbcloud.LogOptions{MinSeverity: dbcloud.SeverityError}, "MinSeverity", everywhere},
		{"Since", dbcloud.LogOptions{Since: at}, "Since", everywhere},
		{"Until", dbcloud.LogOptions{Until: at}, "Until", use{list: true, all: true, tail: true}},
		{"After", dbcloud.LogOptions{After: &dbcloud.LogPosition{}}, "After", use{follow: true}},
		{"PollInterval", dbcloud.LogOptions{PollInterval: time.Second}, "PollInterval", use{follow: true}},
		{"MinSeverity and Severities", dbcloud.LogOptions{MinSeverity: dbcloud.SeverityError, Severities: []string{"LOG"}}, "MinSeverity", use{}},
		{"unknown MinSeverity", dbcloud.LogOptions{MinSeverity: "LOUD"}, "MinSeverity", use{}},
		{"After and Since", dbcloud.LogOptions{After: &dbcloud.LogPosition{}, Since: at}, "", use{}},
		{"Since not before Until", dbcloud.LogOptions{Since: at, Until: at}, "", use{}},
		{"negative PollInterval", dbcloud.LogOptions{PollInterval: -time.Second}, "PollInterval", use{}},
	} {
		for _, m := range []struct {
			name string
			uses bool
			call func(ctx context.Context, c *dbcloud.Client, o *dbcloud.LogOptions) error
		}{
			{"ListLogs", tc.use.list, func(ctx context.Context, c *dbcloud.Client, o *dbcloud.LogOptions) error {
				_, err := c.Services.ListLogs(ctx, "p", "s", o)
				return err
			}},
			{"AllLogs", tc.use.all, func(ctx context.Context, c *dbcloud.Client, o *dbcloud.LogOptions) error {
				for _, err := range c.Services.AllLogs(ctx, "p", "s", o) {
					return err
				}
				return nil
			}},
			{"TailLogs", tc.use.tail, func(ctx context.Context, c *dbcloud.Client, o *dbcloud.LogOptions) error {
				_, _, err := c.Services.TailLogs(ctx, "p", "s", 10, o)
				return err
			}},
			{"FollowLogs", tc.use.follow, func(ctx context.Context, c *dbcloud.Client, o *dbcloud.LogOptions) error {
				for _, err := range c.Services.FollowLogs(ctx, "p", "s", o) {
					return err
				}
				return nil
			}},
		} {
			t.Run(tc.name+"/"+m.name, func(t *testing.T) {
				c, mt := mockClient(t, dbcloud.WithRetryMax(0))
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				sent := 0
				mt.RegisterResponder(http.MethodGet, mockBase+"/projects/p/services/s/logs", func(*http.Request) (*http.Response, error) {
					sent++
					if m.name == "FollowLogs" {
						cancel() // a follow ends after its first poll
					}
					return httpmock.NewStringResponse(200, `{"entries":[]}`), nil
				})
				opts := tc.opts
				err := m.call(ctx, c, &opts)
				ve, refused := errors.AsType[*dbcloud.ValidationError](err)
				switch {
				case m.uses && (refused || err != nil):
					t.Errorf("%s with %s: %v, want it used", m.name, tc.name, err)
				case m.uses && sent != 1:
					t.Errorf("%s with %s: %d requests, want 1", m.name, tc.name, sent)
				case !m.uses && !refused:
					t.Errorf("%s with %s: %v after %d requests, want a *ValidationError", m.name, tc.name, err, sent)
				case !m.uses && sent != 0:
					t.Errorf("%s with %s: %d requests sent before the *ValidationError", m.name, tc.name, sent)
				case !m.uses && tc.field != "" && ve.Field != tc.field:
					t.Errorf("%s with %s: the error names %s, want %s", m.name, tc.name, ve.Field, tc.field)
				}
			})
		}
	}
}
