// Command callpath prints what one warm call of the SDK runs (Services.Get,
// Services.List and Services.Create by default): each function that
// executed, with its file, counted by coverage (see package callpath).
//
//	go run ./internal/testkit/cmd/callpath [-check] [call ...]
//
// Each path is followed by what is over its bounds (callpath.Bounds): the
// whole path's, and the part above internal/pipeline. With -check it exits
// with status 1 when any is.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/dbcloud/dbcloud-go/internal/testkit/callpath"
)

func main() {
	check := flag.Bool("check", false, "exit 1 when a path is over its bound")
	flag.Parse()
	calls := flag.Args()
	if len(calls) == 0 {
		calls = callpath.Calls
	}
	paths, err := callpath.Measure(".", calls...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "callpath:", err)
		os.Exit(2)
	}
	failed := false
	for _, p := range paths {
		fmt.Print(p)
		for _, err := range []error{p.Check(), p.CheckAbove()} {
			if err != nil {
				fmt.Println("  over the bound:", err)
				failed = true
			}
		}
	}
	if *check && failed {
		os.Exit(1)
	}
}
