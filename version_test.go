package dbcloud_test

import (
	"os"
	"regexp"
	"testing"

	"github.com/dbcloud/dbcloud-go"
)

// The changelog's newest section is the version in the code: a released
// "## [X.Y.Z] - date", or "## [Unreleased]" saying it is to be released as
// X.Y.Z.
func TestChangelogMatchesVersion(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	newest := regexp.MustCompile(`(?m)^## \[([^\]]+)\]`).FindSubmatch(data)
	if newest == nil {
		t.Fatal("CHANGELOG.md has no version section")
	}
	version := string(newest[1])
	if version == "Unreleased" {
		m := regexp.MustCompile(`(?m)^## \[Unreleased\]\n\nTo be released as (\S+),`).FindSubmatch(data)
		if m == nil {
			t.Fatal(`CHANGELOG.md: the Unreleased section does not say "To be released as X.Y.Z,"`)
		}
		version = string(m[1])
	}
	if version != dbcloud.Version {
		t.Errorf("CHANGELOG.md's newest version is %s, dbcloud.Version is %s", version, dbcloud.Version)
	}
	if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(dbcloud.Version) {
		t.Errorf("dbcloud.Version %q is not a semantic version", dbcloud.Version)
	}
}
