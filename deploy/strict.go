package deploy

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// The strict reading of a state or plan file. encoding/json alone accepts
// what a file meant for a person to write must not: an unknown field (a
// typo, "polar" for "pooler", would leave the pooler unmanaged without a
// word), a field in another case, a field given twice; and it names
// neither a field's line, nor a required field left out, nor which element
// of an array holds a value of the wrong type. So the file is walked token
// by token against the Go type first, then decoded.

// ParseError is a state or plan file that ParseState or ParsePlan refused:
// where, and why.
type ParseError struct {
	// Line is the line of the file, from 1, that the error is on: an
	// unknown field's, the object's that lacks a required field; 0 for an
	// error in what the file means (a plan's change that no plan makes).
	Line int
	// Path names the field in the file, as in "replica_sets[1].name";
	// "" for the file as a whole.
	Path   string
	Reason string
}

// Error reads "deploy: line 4: replica_sets[0].polar: unknown field ...".
func (e *ParseError) Error() string {
	s := "deploy: "
	if e.Line > 0 {
		s += fmt.Sprintf("line %d: ", e.Line)
	}
	if e.Path != "" {
		s += e.Path + ": "
	}
	return s + e.Reason
}

// required are the fields a file must give, by the Go type of the object
// that holds them.
var required = map[reflect.Type][]string{
	reflect.TypeFor[State]():      {"services"},
	reflect.TypeFor[Service]():    {"name"},
	reflect.TypeFor[ReplicaSet](): {"name"},
	reflect.TypeFor[Fork]():       {"name", "strategy"},
	reflect.TypeFor[VPC]():        {"name", "cidr", "region_code"},
	reflect.TypeFor[Peering]():    {"peer_account_id", "peer_region_code", "peer_vpc_id"},
	reflect.TypeFor[planFile]():   {"format", "project_id", "changes"},
	reflect.TypeFor[Change]():     {"action", "kind", "service", "name"},
	reflect.TypeFor[Seen]():       {"kind", "service", "name"},
	reflect.TypeFor[Problem]():    {"kind", "service", "name", "reason"},
}

// decodeStrict decodes data, one JSON object, into v, a pointer to a
// struct, refusing an unknown field, a field given twice, a value of
// another JSON type than its field's and a required field left out, each
// with its line and path.
func decodeStrict(data []byte, v any) error {
	s := &strictDecoder{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	s.dec.UseNumber() // an integer is judged by its digits, not as a float64
	t := reflect.TypeOf(v).Elem()
	tok, err := s.dec.Token()
	if err != nil {
		return s.syntax(err)
	}
	if tok != json.Delim('{') {
		return &ParseError{Line: s.line(s.dec.InputOffset()), Reason: "not a JSON object"}
	}
	if err := s.object(t, ""); err != nil {
		return err
	}
	if _, err := s.dec.Token(); err != io.EOF {
		return &ParseError{Line: s.line(s.dec.InputOffset()), Reason: "more after the object"}
	}
	// The walk has judged every value's type: what is left is to set them.
	return json.Unmarshal(data, v)
}

// strictDecoder walks a file's tokens.
type strictDecoder struct {
	data []byte
	dec  *json.Decoder
}

// line is the line of the byte at offset.
func (s *strictDecoder) line(offset int64) int {
	return 1 + bytes.Count(s.data[:min(int(offset), len(s.data))], []byte("\n"))
}

// syntax is the *ParseError of a file that is not JSON. A file cut short
// is told apart by where the error is, not by its error's type: Go 1.26's
// decoder reports it as an end of input, later ones as a syntax error at
// the file's end.
func (s *strictDecoder) syntax(err error) error {
	se, isSyntax := errors.AsType[*json.SyntaxError](err)
	end := int64(len(bytes.TrimRight(s.data, " \t\r\n")))
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || isSyntax && se.Offset >= end:
		return &ParseError{Line: s.line(int64(len(s.data))), Reason: "the file ends inside its JSON"}
	case isSyntax:
		return &ParseError{Line: s.line(se.Offset), Reason: se.Error()}
	}
	return &ParseError{Line: s.line(s.dec.InputOffset()), Reason: err.Error()}
}

// object walks the members of an object, its '{' read, as fields of the
// struct type t.
func (s *strictDecoder) object(t reflect.Type, path string) error {
	line := s.line(s.dec.InputOffset())
	fields := jsonFields(t)
	var seen []string
	for s.dec.More() {
		tok, err := s.dec.Token()
		if err != nil {
			return s.syntax(err)
		}
		key, _ := tok.(string)
		at := &ParseError{Line: s.line(s.dec.InputOffset()), Path: joinPath(path, key)}
		ft, ok := fields[key]
		switch {
		case !ok:
			at.Reason = "unknown field (the fields here: " + strings.Join(slices.Sorted(maps.Keys(fields)), ", ") + ")"
			return at
		case slices.Contains(seen, key):
			at.Reason = "given twice"
			return at
		}
		seen = append(seen, key)
		if err := s.value(ft, at.Path); err != nil {
			return err
		}
	}
	if _, err := s.dec.Token(); err != nil { // '}'
		return s.syntax(err)
	}
	for _, name := range required[t] {
		if !slices.Contains(seen, name) {
			return &ParseError{Line: line, Path: joinPath(path, name), Reason: "required, missing"}
		}
	}
	return nil
}

// value walks one value of Go type t: its JSON type is the one t takes,
// an integer is one, and a type of its own syntax (a time) accepts it;
// objects and arrays are walked into.
func (s *strictDecoder) value(t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := s.dec.Token()
	if err != nil {
		return s.syntax(err)
	}
	at := func(format string, args ...any) error {
		return &ParseError{Line: s.line(s.dec.InputOffset()), Path: path, Reason: fmt.Sprintf(format, args...)}
	}
	got, want := tokenKind(tok), goKind(t)
	switch {
	case tok == nil: // null: the zero value, as in Go
	case reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]()):
		// Judged here, where its line is known. The files' only such
		// type is time.Time, which is a string.
		raw, _ := json.Marshal(tok)
		if _, delim := tok.(json.Delim); delim {
			return at("a JSON %s, want a string", got)
		}
		if err := reflect.New(t).Interface().(json.Unmarshaler).UnmarshalJSON(raw); err != nil {
			return at("%v", err)
		}
	case got == "number" && want == "integer":
		if _, err := strconv.ParseInt(tok.(json.Number).String(), 10, 64); err != nil {
			return at("%s is not an integer", tok)
		}
	case got != want:
		return at("a JSON %s, want %s", got, article(want))
	case got == "object":
		return s.object(t, path)
	case got == "array":
		for i := 0; s.dec.More(); i++ {
			if err := s.value(t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		if _, err := s.dec.Token(); err != nil { // ']'
			return s.syntax(err)
		}
	}
	return nil
}

// tokenKind names the JSON type of a token that starts a value.
func tokenKind(tok json.Token) string {
	switch tok.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case nil:
		return "null"
	}
	if tok == json.Delim('[') {
		return "array"
	}
	return "object"
}

// article is kind with its article: "an integer".
func article(kind string) string {
	if strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// goKind names the JSON type that Go type t takes, as tokenKind does.
func goKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice:
		return "array"
	case reflect.Struct:
		return "object"
	}
	return t.Kind().String() // no JSON type: refused, whatever the file holds
}

// jsonFields are the fields of struct type t by their JSON names, those
// of embedded structs included.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case f.Anonymous && name == "":
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			for k, v := range jsonFields(ft) {
				out[k] = v
			}
		case name != "-" && f.IsExported():
			out[cmp.Or(name, f.Name)] = f.Type
		}
	}
	return out
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
