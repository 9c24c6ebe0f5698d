package main

import (
	"flag"
	"sync"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// connection is how a command reaches the API: the environment, or -fake.
type connection struct {
	fake *bool
}

// addConnection adds -fake to fs.
func addConnection(fs *flag.FlagSet) *connection {
	return &connection{fake: fs.Bool("fake", false, "run on a fake API inside the process, which starts empty, instead of DBCLOUD_*")}
}

// client returns the command's client: read-only for a command that only
// plans, so that the client itself guarantees it changes nothing.
func (cn *connection) client(readOnly bool) (*dbcloud.Client, error) {
	opts := []dbcloud.Option{dbcloud.WithUserAgent("dbcloud-deploy")}
	if readOnly {
		opts = append(opts, dbcloud.WithReadOnly())
	}
	if *cn.fake {
		return fakeServer().Client(opts...), nil
	}
	return dbcloud.NewClientFromEnv(opts...)
}

// fake is the fake API of -fake: one per process, made on first use, so
// that the commands run within one process (a test's) share it.
var fake struct {
	sync.Mutex
	srv *dbcloudtest.Server
}

// fakeStep is how long each status lasts on the fake of -fake, in real
// time, and how long a database warms up after READY: enough to show the
// statuses go by.
const fakeStep = 300 * time.Millisecond

func fakeServer() *dbcloudtest.Server {
	fake.Lock()
	defer fake.Unlock()
	if fake.srv == nil {
		fake.srv = dbcloudtest.NewServer(dbcloudtest.WithRealTime(), dbcloudtest.WithStep(fakeStep), dbcloudtest.WithConnectDelay(fakeStep))
	}
	return fake.srv
}
