// Package logwalk walks a history that a server serves newest first, one
// page per request, each page naming the next, older one with an opaque
// cursor that is valid only within the window (the upper time bound) it was
// issued for.
//
// It owns three rules of such a walk: every page after the first lies in
// one window, fixed after the first page from the page's own timestamps
// (the server's clock, which no local skew moves), with the first page's
// entries at the window's edge dropped from the second so that none comes
// twice; a request is identified by its cursor and its window together,
// never by the cursor's text alone, since a server whose cursors are
// positions within a window hands the same text back in another window;
// and a walk whose requests repeat (a server that cycles) ends with an
// error, detected in constant memory whatever the walk's length.
//
// It knows nothing of services, HTTP, query parameters, credentials or
// the public API of the module: its caller gives it a Source that sends
// one request for a cursor and an upper bound, and says what an entry's
// time and identity are. It must not import the module's root package.
package logwalk
