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
	"strings"
)

// The strict reading of a state or plan file. encoding/json alone accepts
// what a file meant for a person to write must not: an unknown field (a
// typo, "polar" for "pooler", would leave the pooler unmanaged without a
// word), a field in another case, a field given twice; and it names
// neither the field's line nor a required field left out. So the file is
// walked token by token against the Go type first, then decoded.

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
	reflect.TypeFor[State]():      {"service"},
	reflect.TypeFor[Service]():    {"name"},
	reflect.TypeFor[ReplicaSet](): {"name"},
	reflect.TypeFor[Fork]():       {"name", "strategy"},
	reflect.TypeFor[planFile]():   {"format", "project_id", "service", "changes"},
	reflect.TypeFor[Change]():     {"action", "kind", "name"},
	reflect.TypeFor[Seen]():       {"kind", "name"},
	reflect.TypeFor[Problem]():    {"kind", "name", "reason"},
}

// decodeStrict decodes data, one JSON object, into v, a pointer to a
// struct, refusing an unknown field, a field given twice and a required
// field left out, each with its line and path.
func decodeStrict(data []byte, v any) error {
	s := &strictDecoder{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
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
	err = json.Unmarshal(data, v)
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		return &ParseError{Line: s.line(te.Offset), Path: te.Field, Reason: fmt.Sprintf("a JSON %s, want %s", te.Value, jsonKind(te.Type))}
	}
	return err
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

func (s *strictDecoder) syntax(err error) error {
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		return &ParseError{Line: s.line(se.Offset), Reason: se.Error()}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &ParseError{Line: s.line(int64(len(s.data))), Reason: "the file ends inside its JSON"}
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
		at := &ParseError{Line: s.line(s.dec.InputOffset()), Path: join(path, key)}
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
			return &ParseError{Line: line, Path: join(path, name), Reason: "required, missing"}
		}
	}
	return nil
}

// value walks one value of Go type t. Only objects of structs and arrays
// of them are walked into: what a value of another type holds, and a
// value of the wrong JSON type, are json.Unmarshal's to judge.
func (s *strictDecoder) value(t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := s.dec.Token()
	if err != nil {
		return s.syntax(err)
	}
	walk := !reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]())
	if _, delim := tok.(json.Delim); !walk && !delim && tok != nil {
		// A type of its own syntax (a time): judged here, where its line
		// is known, since json.Unmarshal's error would not say it.
		raw, _ := json.Marshal(tok)
		if err := reflect.New(t).Interface().(json.Unmarshaler).UnmarshalJSON(raw); err != nil {
			return &ParseError{Line: s.line(s.dec.InputOffset()), Path: path, Reason: err.Error()}
		}
	}
	switch {
	case tok == json.Delim('{') && walk && t.Kind() == reflect.Struct:
		return s.object(t, path)
	case tok == json.Delim('[') && walk && t.Kind() == reflect.Slice:
		for i := 0; s.dec.More(); i++ {
			if err := s.value(t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		_, err = s.dec.Token() // ']'
	case tok == json.Delim('{') || tok == json.Delim('['):
		err = s.skip()
	}
	if err != nil {
		return s.syntax(err)
	}
	return nil
}

// skip reads the rest of an object or array whose opening token was read.
func (s *strictDecoder) skip() error {
	for depth := 1; depth > 0; {
		tok, err := s.dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
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

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// jsonKind names what a Go type takes in JSON.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}
