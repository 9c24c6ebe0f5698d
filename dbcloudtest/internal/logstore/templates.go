package logstore

import "fmt"

// logTemplate renders one kind of PostgreSQL log line from a random argument.
// weight is its share of the random lines (Seed, WriteDue);
// 0 keeps it for startup.
type logTemplate struct {
	sev    uint8
	weight int
	render func(arg uint32) string
}

const (
	tmplText uint16 = iota // free text kept in Store.texts
	tmplStarting
	tmplListen4
	tmplListen6
	tmplSocket
	tmplSystemReady
	tmplTimescale
	tmplVector
	tmplStandby
	tmplStreaming
	tmplCheckpointStart
	tmplCheckpointDone
	tmplConnReceived
	tmplConnAuthorized
	tmplDisconnection
	tmplSlowQuery
	tmplAutovacuum
	tmplAutoanalyze
	tmplJob
	tmplVacuumInfo
	tmplNoTransaction
	tmplFrequentCheckpoints
	tmplDuplicateKey
	tmplMissingRelation
	tmplStatementTimeout
	tmplDeadlock
	tmplPasswordFailed
	tmplIdleTimeout
	tmplCount
)

var (
	logTables  = []string{"metrics", "events", "readings", "orders", "users", "sessions", "invoices", "sensor_data"}
	logUsers   = []string{"tsdbadmin", "app", "readonly", "grafana", "etl"}
	logApps    = []string{"psql", "pgAdmin 4", "grafana", "app-server", "PostgreSQL JDBC Driver", "node-postgres"}
	logQueries = []string{
		"SELECT time_bucket('5 minutes', time) AS bucket, avg(value) FROM metrics WHERE time > now() - interval '1 day' GROUP BY bucket ORDER BY bucket",
		`SELECT * FROM events WHERE payload @> '{"type": "click"}' ORDER BY created_at DESC LIMIT 100`,
		"UPDATE orders SET status = 'shipped' WHERE id = ANY($1)",
		"DELETE FROM sessions WHERE expires_at < now()",
		"INSERT INTO readings (time, sensor_id, value) SELECT * FROM unnest($1::timestamptz[], $2::int[], $3::float8[])",
		"SELECT u.id, count(o.id) FROM users u JOIN orders o ON o.user_id = u.id GROUP BY u.id HAVING count(o.id) > 10",
	}
)

// pick chooses from list with the bits of arg above shift, so that several
// choices made from one argument are independent.
func pick(list []string, arg uint32, shift uint) string { return list[int(arg>>shift)%len(list)] }

func fixed(msg string) func(uint32) string { return func(uint32) string { return msg } }

var templates = [tmplCount]logTemplate{
	tmplStarting:    {sevLog, 0, fixed("starting PostgreSQL 16.4 on x86_64-pc-linux-gnu, compiled by gcc (GCC) 11.4.0, 64-bit")},
	tmplListen4:     {sevLog, 0, fixed(`listening on IPv4 address "0.0.0.0", port 5432`)},
	tmplListen6:     {sevLog, 0, fixed(`listening on IPv6 address "::", port 5432`)},
	tmplSocket:      {sevLog, 0, fixed(`listening on Unix socket "/var/run/postgresql/.s.PGSQL.5432"`)},
	tmplSystemReady: {sevLog, 0, fixed("database system is ready to accept connections")},
	tmplTimescale:   {sevLog, 0, fixed("TimescaleDB background worker launcher connected to shared catalogs")},
	tmplVector:      {sevLog, 0, fixed(`extension "vector" 0.7.4 loaded`)},
	tmplStandby:     {sevLog, 0, fixed("entering standby mode")},
	tmplStreaming: {sevLog, 0, func(a uint32) string {
		return fmt.Sprintf("started streaming WAL from primary at 0/%X000000 on timeline 1", 1+a%64)
	}},
	tmplCheckpointStart: {sevLog, 8, func(a uint32) string {
		return "checkpoint starting: " + pick([]string{"time", "wal", "immediate force wait"}, a, 0)
	}},
	tmplCheckpointDone: {sevLog, 8, func(a uint32) string {
		buffers := 10 + a%5000
		return fmt.Sprintf("checkpoint complete: wrote %d buffers (%.1f%%); 0 WAL file(s) added, 0 removed, %d recycled; "+
			"write=%d.%03d s, sync=0.%03d s, total=%d.%03d s; sync files=%d, longest=0.%03d s, average=0.%03d s; "+
			"distance=%d kB, estimate=%d kB", buffers, float64(buffers)/163.84, a>>8%4, a>>4%270, a%1000, a>>6%100,
			a>>4%270, (a+37)%1000, 2+a>>10%40, a>>3%50, a>>5%9, 1024+a>>2%65536, 2048+a>>2%65536)
	}},
	tmplConnReceived: {sevLog, 10, func(a uint32) string {
		return fmt.Sprintf("connection received: host=10.%d.%d.%d port=%d", a>>24, a>>16&255, a>>8&255, 32768+a%28000)
	}},
	tmplConnAuthorized: {sevLog, 10, func(a uint32) string {
		return fmt.Sprintf("connection authorized: user=%s database=tsdb application_name=%s SSL enabled "+
			"(protocol=TLSv1.3, cipher=TLS_AES_256_GCM_SHA384, bits=256)", pick(logUsers, a, 0), pick(logApps, a, 8))
	}},
	tmplDisconnection: {sevLog, 8, func(a uint32) string {
		return fmt.Sprintf("disconnection: session time: %d:%02d:%02d.%03d user=%s database=tsdb host=10.0.%d.%d port=%d",
			a>>28, a>>20%60, a>>14%60, a%1000, pick(logUsers, a, 4), a>>8&255, a>>16&255, 32768+a%28000)
	}},
	tmplSlowQuery: {sevLog, 6, func(a uint32) string {
		return fmt.Sprintf("duration: %d.%03d ms statement: %s", 1000+a>>10%60000, a%1000, pick(logQueries, a, 3))
	}},
	tmplAutovacuum: {sevLog, 5, func(a uint32) string {
		return fmt.Sprintf(`automatic vacuum of table "tsdb.public.%s": index scans: %d`, pick(logTables, a, 0), a>>8%3)
	}},
	tmplAutoanalyze: {sevLog, 4, func(a uint32) string {
		return fmt.Sprintf(`automatic analyze of table "tsdb.public.%s"`, pick(logTables, a, 0))
	}},
	tmplJob: {sevInfo, 4, func(a uint32) string {
		return fmt.Sprintf("job %d (Refresh Continuous Aggregate Policy [%d]) completed in %d.%03d s", 1000+a%50, 1000+a%50, a>>10%30, a%1000)
	}},
	tmplVacuumInfo: {sevInfo, 2, func(a uint32) string {
		return fmt.Sprintf(`vacuuming "tsdb.public.%s"`, pick(logTables, a, 0))
	}},
	tmplNoTransaction: {sevWarning, 3, fixed("there is no transaction in progress")},
	tmplFrequentCheckpoints: {sevWarning, 1, func(a uint32) string {
		return fmt.Sprintf(`checkpoints are occurring too frequently (%d seconds apart)`, 5+a%20)
	}},
	tmplDuplicateKey: {sevError, 3, func(a uint32) string {
		return fmt.Sprintf(`duplicate key value violates unique constraint "%s_pkey"`, pick(logTables, a, 0))
	}},
	tmplMissingRelation: {sevError, 2, func(a uint32) string {
		return fmt.Sprintf(`relation "%s_old" does not exist at character %d`, pick(logTables, a, 0), 15+a>>8%60)
	}},
	tmplStatementTimeout: {sevError, 2, fixed("canceling statement due to statement timeout")},
	tmplDeadlock:         {sevError, 1, fixed("deadlock detected")},
	tmplPasswordFailed: {sevFatal, 1, func(a uint32) string {
		return fmt.Sprintf(`password authentication failed for user "%s"`, pick([]string{"postgres", "admin", "tsdbadmin", "root"}, a, 0))
	}},
	tmplIdleTimeout: {sevFatal, 1, fixed("terminating connection due to idle-in-transaction timeout")},
}

var totalWeight = func() int {
	n := 0
	for _, t := range templates {
		n += t.weight
	}
	return n
}()

// pickTemplate maps r in [0, totalWeight) to a template by weight.
func pickTemplate(r int) uint16 {
	for i, t := range templates {
		if r < t.weight {
			return uint16(i)
		}
		r -= t.weight
	}
	panic("dbcloudtest: template weight out of range")
}
