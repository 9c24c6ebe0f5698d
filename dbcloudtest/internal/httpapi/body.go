package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"mime"
	"net/http"
	"strconv"
	"unicode/utf8"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

const (
	maxNameRunes = 128
	shared       = "shared"
)

// jsonBody is a request body kept as raw values, so that each field's JSON
// type can be checked and named in the error the way the live service does.
type jsonBody map[string]json.RawMessage

// parseBody reads the body of an operation that takes one, raw as read
// with readErr and sent as contentType: a JSON object, sent as such, whole.
func parseBody(contentType string, raw []byte, readErr error) (jsonBody, error) {
	if readErr != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](readErr); ok {
			return nil, apierr.BadRequest("body", fmt.Sprintf("must be at most %d bytes", MaxBodyBytes))
		}
		return nil, apierr.BadRequest("body", "could not be read: "+readErr.Error())
	}
	if mt, _, err := mime.ParseMediaType(contentType); err != nil || mt != "application/json" {
		return nil, apierr.BadRequest("Content-Type", "must be application/json")
	}
	var b jsonBody
	if err := json.Unmarshal(raw, &b); err != nil || b == nil {
		if err == nil || json.Valid(raw) {
			return nil, apierr.BadRequest("body", "must be a JSON object")
		}
		return nil, apierr.BadRequest("body", "malformed JSON: "+err.Error())
	}
	return b, nil
}

// value returns a field's raw value; null counts as absent.
func (b jsonBody) value(name string) (json.RawMessage, bool) {
	raw := bytes.TrimSpace(b[name])
	if len(raw) == 0 || string(raw) == "null" {
		return nil, false
	}
	return raw, true
}

func (b jsonBody) str(name string) (v string, ok bool, err error) {
	raw, ok := b.value(name)
	if !ok {
		return "", false, nil
	}
	if raw[0] != '"' || json.Unmarshal(raw, &v) != nil {
		return "", true, apierr.BadRequest(name, "must be a string")
	}
	return v, true, nil
}

func (b jsonBody) integer(name string) (v int, ok bool, err error) {
	raw, ok := b.value(name)
	if !ok {
		return 0, false, nil
	}
	if c := raw[0]; c != '-' && (c < '0' || c > '9') {
		return 0, true, apierr.BadRequest(name, "must be a number")
	}
	n, err := strconv.ParseInt(string(raw), 10, 32)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, true, apierr.BadRequest(name, fmt.Sprintf("must be at most %d", math.MaxInt32))
		}
		return 0, true, apierr.BadRequest(name, "must be an integer")
	}
	return int(n), true, nil
}

func (b jsonBody) stringList(name string) (v []string, ok bool, err error) {
	raw, ok := b.value(name)
	if !ok {
		return nil, false, nil
	}
	if raw[0] != '[' || json.Unmarshal(raw, &v) != nil {
		return nil, true, apierr.BadRequest(name, "must be an array of strings")
	}
	return v, true, nil
}

// required reads a string field that must be present.
func (b jsonBody) required(name string) (string, error) {
	v, ok, err := b.str(name)
	if err == nil && !ok {
		err = apierr.BadRequest(name, "is required")
	}
	return v, err
}

func checkName(field, v string) error {
	if n := utf8.RuneCountInString(v); n < 1 || n > maxNameRunes {
		return apierr.BadRequest(field, fmt.Sprintf("must be 1 to %d characters", maxNameRunes))
	}
	return nil
}

func checkEnv(field, v string) error {
	if v != model.EnvDev && v != model.EnvProd {
		return apierr.BadRequest(field, "must be DEV or PROD")
	}
	return nil
}

// allDigits is the live service's ^[0-9]+$.
func allDigits(v string) bool {
	for _, r := range v {
		if r < '0' || r > '9' {
			return false
		}
	}
	return v != ""
}

func checkDigits(field, v string) error {
	if !allDigits(v) {
		return apierr.BadRequest(field, "must contain digits only")
	}
	return nil
}

// digits parses a size sent as a string of digits. Zero is refused too: no
// allocation of zero millicores or gigabytes can be made.
func digits(field, v string) (int, error) {
	if err := checkDigits(field, v); err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(v, 10, 32)
	switch {
	case err != nil:
		return 0, apierr.BadRequest(field, fmt.Sprintf("must be at most %d", math.MaxInt32))
	case n < 1:
		return 0, apierr.BadRequest(field, "must be at least 1")
	}
	return int(n), nil
}

// sizes reads cpu_millis and memory_gbs of create and fork: digits or
// "shared", and "shared" for both or neither. Absent sizes keep the defaults.
func (b jsonBody) sizes(cpu, mem int) (int, int, error) {
	c, cOK, err := b.str("cpu_millis")
	if err != nil {
		return 0, 0, err
	}
	m, mOK, err := b.str("memory_gbs")
	if err != nil {
		return 0, 0, err
	}
	cShared, mShared := cOK && c == shared, mOK && m == shared
	switch {
	case cShared && mShared:
		return model.SharedCPUMillis, model.SharedMemoryGBs, nil
	case cShared:
		return 0, 0, apierr.BadRequest("memory_gbs", `must also be "shared" when cpu_millis is "shared"`)
	case mShared:
		return 0, 0, apierr.BadRequest("cpu_millis", `must also be "shared" when memory_gbs is "shared"`)
	}
	if cOK {
		if cpu, err = digits("cpu_millis", c); err != nil {
			return 0, 0, apierr.BadRequest("cpu_millis", `must be digits or "shared"`)
		}
	}
	if mOK {
		if mem, err = digits("memory_gbs", m); err != nil {
			return 0, 0, apierr.BadRequest("memory_gbs", `must be digits or "shared"`)
		}
	}
	return cpu, mem, nil
}

// env reads an optional environment field; absent means DEV.
func (b jsonBody) env(field string) (string, error) {
	v, ok, err := b.str(field)
	if err != nil || !ok {
		return model.EnvDev, err
	}
	return v, checkEnv(field, v)
}
