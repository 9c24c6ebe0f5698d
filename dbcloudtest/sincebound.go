package dbcloudtest

// WithExclusiveSince makes the logs endpoint's since bound exclusive
// (timestamp > since) instead of inclusive (since <= timestamp, the
// default). The API does not say which of the two it is, so code that reads
// logs from a since bound (a follow that asks again from the newest
// timestamp it has, say) should be tested against both: run such a test once
// with the default server and once with this option, and check that it
// neither repeats nor loses an entry that sits exactly on the bound.
func WithExclusiveSince() Option {
	return func(c *config) { c.api.SinceExclusive = true }
}
