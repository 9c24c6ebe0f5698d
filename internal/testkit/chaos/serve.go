package chaos

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"time"
)

// server is an http.Server serving one listener in a goroutine of its own,
// as the backend and the proxy both do.
type server struct {
	*http.Server
	served chan struct{} // closed when Serve has returned
}

// serve starts srv on ln. Its error log is discarded: resets and cut-offs
// are the point of a soak, not news.
func serve(ln net.Listener, srv *http.Server) *server {
	srv.ReadHeaderTimeout = 10 * time.Second
	srv.ErrorLog = log.New(io.Discard, "", 0)
	s := &server{Server: srv, served: make(chan struct{})}
	go func() {
		defer close(s.served)
		_ = srv.Serve(ln)
	}()
	return s
}

// stop shuts the server down, gracefully for up to 5 s and then by closing
// its connections, and returns once Serve has returned. It does not wait
// for handlers that hijacked their connection.
func (s *server) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if s.Shutdown(ctx) != nil {
		_ = s.Close()
	}
	<-s.served
}
