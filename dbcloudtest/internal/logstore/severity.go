package logstore

import "strings"

// Severities are stored as small numbers, one bit each in a filter's
// uint8; sevNames gives their wire names, every one of dbcloud.Severity's.
const (
	sevLog uint8 = iota
	sevInfo
	sevWarning
	sevError
	sevFatal
	sevDebug
	sevNotice
	sevPanic
)

var sevNames = [...]string{
	sevDebug: "DEBUG", sevLog: "LOG", sevInfo: "INFO", sevNotice: "NOTICE",
	sevWarning: "WARNING", sevError: "ERROR", sevFatal: "FATAL", sevPanic: "PANIC",
}

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
