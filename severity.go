package dbcloud

import "strings"

// Severity is the level of a log entry, ordered as PostgreSQL's
// client_min_messages ranks them: DEBUG < LOG < INFO < NOTICE < WARNING <
// ERROR < FATAL < PANIC. An unknown level ranks below DEBUG, so an "at
// least" filter leaves it out.
type Severity string

// Severities, from routine to worst.
const (
	SeverityDebug   Severity = "DEBUG"
	SeverityLog     Severity = "LOG"
	SeverityInfo    Severity = "INFO"
	SeverityNotice  Severity = "NOTICE"
	SeverityWarning Severity = "WARNING"
	SeverityError   Severity = "ERROR"
	SeverityFatal   Severity = "FATAL"
	SeverityPanic   Severity = "PANIC"
)

// severityOrder is every known severity, routine first.
var severityOrder = []Severity{SeverityDebug, SeverityLog, SeverityInfo, SeverityNotice, SeverityWarning, SeverityError, SeverityFatal, SeverityPanic}

// rank returns the severity's place in the order, 1 for DEBUG to 8 for
// PANIC, or 0 for a level this version does not know. Case does not matter,
// and PostgreSQL's DEBUG1 to DEBUG5 rank as DEBUG.
func (s Severity) rank() int {
	u := Severity(strings.ToUpper(strings.TrimSpace(string(s))))
	if strings.HasPrefix(string(u), "DEBUG") {
		u = SeverityDebug
	}
	for i, v := range severityOrder {
		if u == v {
			return i + 1
		}
	}
	return 0
}

// AtLeast reports whether s is min or worse, in any case ("error" is
// SeverityError), with PostgreSQL's DEBUG1 to DEBUG5 as SeverityDebug. A
// level this version does not know is never at least a known one.
//
//	if entry.Severity.AtLeast(dbcloud.SeverityWarning) { ... }
func (s Severity) AtLeast(min Severity) bool {
	r := s.rank()
	return r != 0 && r >= min.rank()
}

// severitiesFrom returns the levels to send for "min or worse": nil when min
// is "" or the most routine level (no filter is needed), and every known
// level from min up otherwise.
func severitiesFrom(min Severity) ([]string, error) {
	if min == "" {
		return nil, nil
	}
	r := min.rank()
	switch r {
	case 0:
		return nil, invalid("MinSeverity", "unknown severity "+string(min)+": want one of DEBUG, LOG, INFO, NOTICE, WARNING, ERROR, FATAL, PANIC")
	case 1:
		return nil, nil
	}
	out := make([]string, 0, len(severityOrder)-r+1)
	for _, v := range severityOrder[r-1:] {
		out = append(out, string(v))
	}
	return out, nil
}
