package main

import (
	"bytes"
	"fmt"
	"testing"
)

// The packages whose file cycles the project bounds, and their bounds: no
// file of the root package, of deploy or of its command is part of a cycle
// of more than 3 files (issue 43; the root's core calls only downward).
func TestCycleBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the packages")
	}
	for dir, bound := range map[string]int{"../../../..": 3, "../../../../deploy": 3, "../../../../cmd/dbcloud-deploy": 3} {
		var out bytes.Buffer
		if err := run(&out, dir, false); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		var largest, files int
		if _, err := fmt.Sscanf(out.String(), "largest cycle: %d of %d files", &largest, &files); err != nil {
			t.Fatalf("%s: %v\n%s", dir, err, out.String())
		}
		if largest > bound {
			t.Errorf("%s: a cycle of %d files, bound %d:\n%s", dir, largest, bound, out.String())
		}
	}
}
