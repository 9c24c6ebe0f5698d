package dbcloud_test

import (
	"io"
	"net/http"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go"
)

// moduleRoot is the directory of this file, the module's root.
var moduleRoot = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}()

// sdkFrames is the SDK's part of the calling goroutine's stack, outermost
// first: function names without the module path, and their files.
func sdkFrames() (funcs, files []string) {
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(2, pc)])
	const module = "github.com/dbcloud/dbcloud-go"
	for {
		f, more := frames.Next()
		if name, ok := strings.CutPrefix(f.Function, module); ok && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "/internal/")) {
			funcs = append(funcs, strings.TrimPrefix(name, "/internal/"))
			rel, _ := filepath.Rel(moduleRoot, f.File)
			files = append(files, filepath.ToSlash(rel))
		}
		if !more {
			break
		}
	}
	slices.Reverse(funcs)
	slices.Reverse(files)
	return funcs, files
}

// stackRecorder is a transport that records the SDK's frames when a
// request reaches the wire and when its answer's body is read, on the way
// back to the decoder.
type stackRecorder struct {
	wire, read []string
	files      []string
	body       string
}

func (s *stackRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	funcs, files := sdkFrames()
	s.wire, s.files = funcs, append(s.files, files...)
	return &http.Response{StatusCode: 200, Header: http.Header{}, Request: r, ContentLength: int64(len(s.body)),
		Body: io.NopCloser(&readRecorder{s: s, r: strings.NewReader(s.body)})}, nil
}

type readRecorder struct {
	s *stackRecorder
	r io.Reader
}

func (b *readRecorder) Read(p []byte) (int, error) {
	funcs, files := sdkFrames()
	b.s.read, b.s.files = funcs, append(b.s.files, files...)
	return b.r.Read(p)
}

// The path of a Get, read top to bottom: the public method, the one core
// function that builds and sends the request, the pipeline's attempt loop
// and the transport. It records the SDK's frames at the wire and where the
// answer is read on its way back to the decoder (which then runs
// decodeAnswer, decodeJSON and the wire type's finish), and bounds them:
// at most 4 SDK frames from the public method to RoundTrip, and at most 15
// functions over 6 files in all. go test -v -run TestGetCallPath lists them.
func TestGetCallPath(t *testing.T) {
	rec := &stackRecorder{body: serviceJSON}
	c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(mockBase), dbcloud.WithHTTPClient(&http.Client{Transport: rec}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Services.Get(t.Context(), "p1", "s1"); err != nil {
		t.Fatal(err)
	}
	t.Logf("at the wire: %s", strings.Join(rec.wire, " → "))
	t.Logf("at the read: %s", strings.Join(rec.read, " → "))
	if len(rec.wire) > 4 || rec.wire[0] != ".(*ServicesClient).Get" || !strings.HasSuffix(rec.wire[len(rec.wire)-1], ".RoundTrip") {
		t.Errorf("at the wire: %d SDK frames %v, want at most 4, from Services.Get to RoundTrip", len(rec.wire), rec.wire)
	}
	decode := []string{".decodeAnswer", ".decodeJSON", ".(*serviceJSON).finish"}
	funcs := slices.Compact(slices.Sorted(slices.Values(slices.Concat(rec.wire, rec.read, decode))))
	files := slices.Compact(slices.Sorted(slices.Values(append(rec.files, "decode.go", "wire.go"))))
	t.Logf("%d functions: %s", len(funcs), strings.Join(funcs, ", "))
	t.Logf("%d files: %s", len(files), strings.Join(files, ", "))
	if len(funcs) > 15 || len(files) > 6 {
		t.Errorf("the path reads in %d functions over %d files, want at most 15 over 6", len(funcs), len(files))
	}
}
