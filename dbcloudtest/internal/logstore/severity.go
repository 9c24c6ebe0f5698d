package logstore

import "strings"

// Severities are stored as small numbers; sevNames gives their wire names.
const (
	sevLog uint8 = iota
	sevInfo
	sevWarning
	sevError
	sevFatal
)

var sevNames = [...]string{sevLog: "LOG", sevInfo: "INFO", sevWarning: "WARNING", sevError: "ERROR", sevFatal: "FATAL"}

// severity maps a wire severity name, in any case, to its stored number; ""
// is LOG.
func severity(name string) (uint8, bool) {
	if name == "" {
		return sevLog, true
	}
	for i, n := range sevNames {
		if strings.EqualFold(name, n) {
			return uint8(i), true
		}
	}
	return 0, false
}
