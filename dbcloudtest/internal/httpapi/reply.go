package httpapi

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/wire"
)

// reply is what a handler decided to answer, before it is encoded.
type reply struct {
	status int
	body   any // nil: no body
	header http.Header
}

// accepted answers 202 with body, unless err: an operation's own
// answer, as accepted(op(...)).
func accepted(body any, err error) (reply, error) {
	return reply{status: http.StatusAccepted, body: body}, err
}

func ok(body any) reply { return reply{status: http.StatusOK, body: body} }

func message(status int, text string) reply {
	return reply{status: status, body: wire.Message{Message: text}}
}

// errorReply is the API's answer with err, one of apierr's (the only error
// type handlers return), with header.
func errorReply(err error, header http.Header) reply {
	e := err.(*apierr.Error)
	return reply{status: e.Status, body: wire.Error{Code: e.Code, Message: e.Message, Details: e.Details}, header: header}
}

// Encoded is an answer ready for the wire; faults need it whole to drop or
// cut it.
type Encoded struct {
	Status int
	Header http.Header // X-Request-Id included, and Content-Length unless 204
	Body   []byte
}

// EncodeError encodes the answer with err, one of apierr's, as request id.
func EncodeError(err error, id string) Encoded { return encode(errorReply(err, nil), id) }

// jsonContentType is the Content-Type of every JSON answer.
var jsonContentType = []string{"application/json"}

func encode(rep reply, id string) Encoded {
	// Content-Type's value is shared by all answers: header values are
	// replaced, never changed in place.
	e := Encoded{Status: rep.status, Header: http.Header{}}
	for k, v := range rep.header {
		e.Header[k] = slices.Clone(v)
	}
	e.Header["X-Request-Id"] = []string{id}
	if rep.body != nil {
		e.Body = wire.Encode(rep.body)
		e.Header["Content-Type"] = jsonContentType
	}
	if e.Status != http.StatusNoContent {
		e.Header.Set("Content-Length", strconv.Itoa(len(e.Body)))
	}
	return e
}

// Write sends the answer.
func (e Encoded) Write(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range e.Header {
		h[k] = v
	}
	w.WriteHeader(e.Status)
	_, _ = w.Write(e.Body)
}
