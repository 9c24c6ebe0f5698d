package dbcloud_test

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/dbcloud/dbcloud-go/internal/testkit/callpath"
)

// moduleRoot is the directory of this file, the module's root.
var moduleRoot = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}()

// What one warm Services.Get, List and Create run, counted by coverage:
// every function that executed for that one call, those that return
// before the request reaches the wire included (see package callpath).
// The whole path is held to callpath.Bounds' Total, and the part above
// internal/pipeline to its Above, as
// go run ./internal/testkit/cmd/callpath -check holds them. go test -v
// -run TestCallPath lists the functions.
func TestCallPath(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the module with coverage")
	}
	paths, err := callpath.Measure(moduleRoot, callpath.Calls...)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		t.Log(p)
		if err := p.Check(); err != nil {
			t.Error(err)
		}
		if err := p.CheckAbove(); err != nil {
			t.Error(err)
		}
	}
}
