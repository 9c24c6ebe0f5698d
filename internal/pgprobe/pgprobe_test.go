package pgprobe

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go/internal/testkit/pgwire"
)

func TestAnswerMeans(t *testing.T) {
	up := []struct {
		name string
		typ  byte
		body string
	}{
		{"AuthenticationSASL", 'R', pgwire.AuthSASL},
		{"AuthenticationMD5Password", 'R', "\x00\x00\x00\x05salt"},
		{"AuthenticationCleartextPassword", 'R', "\x00\x00\x00\x03"},
		{"AuthenticationOk (trust)", 'R', "\x00\x00\x00\x00"},
		{"28P01 password authentication failed", 'E', "SFATAL\x00C28P01\x00Mpassword authentication failed for user \"dbcloud_probe\"\x00\x00"},
		{"28000 no pg_hba.conf entry", 'E', "SFATAL\x00VFATAL\x00C28000\x00Mno pg_hba.conf entry\x00\x00"},
		{"3D000 no such database", 'E', "SFATAL\x00C3D000\x00Mdatabase \"postgres\" does not exist\x00\x00"},
		{"53300 too many clients", 'E', "SFATAL\x00C53300\x00Msorry, too many clients already\x00\x00"},
		{"an error without a code", 'E', "SFATAL\x00Mno code\x00\x00"},
		{"an error without fields", 'E', "\x00"},
		{"bytes after the terminator", 'E', "C28000\x00\x00junk"},
	}
	for _, c := range up {
		if err := answerMeans(c.typ, []byte(c.body)); err != nil {
			t.Errorf("%s: %v, want up", c.name, err)
		}
	}

	notYet := []struct {
		name, body string
		typ        byte
		want       string
	}{
		{"57P03 starting up", pgwire.StartingUp, 'E', `SQLSTATE "57P03": "the database system is starting up"`},
		{"57P03 hot standby off", "SFATAL\x00C57P03\x00Mthe database system is not accepting connections\x00DHot standby mode is disabled.\x00\x00", 'E', "not accepting connections"},
		{"57P03 with a hostile message", "C57P03\x00M" + strings.Repeat("\x1b[31m", 500) + "\x00\x00", 'E', `\x1b[31m`},
		{"a short authentication request", "\x00\x00", 'R', "malformed authentication request"},
		{"an empty error", "", 'E', "malformed error response"},
		{"an unterminated field", "SFATAL\x00C57P03", 'E', "malformed error response"},
		{"fields without the final NUL", "SFATAL\x00C57P03\x00", 'E', "malformed error response"},
		{"a notice", "SNOTICE\x00Mhello\x00\x00", 'N', `unexpected answer of type 'N'`},
		{"ReadyForQuery", "I", 'Z', `unexpected answer of type 'Z'`},
		{"an HTTP server", "TTP/1.1 400 Bad Request\r\n", 'H', "not a PostgreSQL server"},
	}
	for _, c := range notYet {
		err := answerMeans(c.typ, []byte(c.body))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.want)
		}
		if err != nil && len(err.Error()) > 1000 {
			t.Errorf("%s: error of %d bytes", c.name, len(err.Error()))
		}
	}
}

func TestReadAnswerBoundsLengths(t *testing.T) {
	for name, c := range map[string]struct {
		in   []byte
		want string
	}{
		"length below 4":            {[]byte{'R', 0, 0, 0, 3}, "out of range"},
		"length of 2 GiB":           {[]byte{'E', 0x7f, 0xff, 0xff, 0xff}, "out of range"},
		"length over 16 KiB":        {append([]byte{'E', 0, 0, 0x40, 0x05}, make([]byte, 1<<14+1)...), "out of range"},
		"body cut short":            {pgwire.Msg('R', pgwire.AuthSASL)[:9], "unexpected EOF"},
		"header cut short":          {[]byte{'R', 0, 0}, "unexpected EOF"},
		"nothing":                   {nil, "EOF"},
		"57P03 whole":               {pgwire.Msg('E', pgwire.StartingUp), "57P03"},
		"57P03 at the length limit": {pgwire.Msg('E', "C57P03\x00M"+strings.Repeat("x", maxAnswerBytes-11)+"\x00\x00"), "57P03"},
	} {
		err := readAnswer(bytes.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", name, err, c.want)
		}
	}
	if err := readAnswer(bytes.NewReader(pgwire.Msg('R', pgwire.AuthSASL))); err != nil {
		t.Errorf("AuthenticationSASL: %v", err)
	}
}

// FuzzReadAnswer feeds arbitrary server bytes to the probe's reader: it
// must not panic, must call a server up only for an authentication request
// or an error other than 57P03, and must keep its error short.
func FuzzReadAnswer(f *testing.F) {
	for _, seed := range [][]byte{
		pgwire.Msg('R', pgwire.AuthSASL), pgwire.Msg('E', pgwire.StartingUp), pgwire.Msg('E', "C28P01\x00\x00"),
		pgwire.Msg('E', "C57P03"), {'E', 0xff, 0xff, 0xff, 0xff}, {'N'}, nil,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		err := readAnswer(bytes.NewReader(in))
		if err == nil {
			if in[0] != 'R' && in[0] != 'E' {
				t.Fatalf("%q: up, from a message of type %q", in, in[0])
			}
			if in[0] == 'E' && bytes.HasPrefix(in[5:], []byte("C57P03\x00")) {
				t.Fatalf("%q: 57P03 as the first field, taken as up", in)
			}
			return
		}
		if n := len(err.Error()); n > 1000 {
			t.Fatalf("error of %d bytes", n)
		}
		var se *serverError
		if errors.As(err, &se) && se.code != sqlStateCannotConnectNow {
			t.Fatalf("%q: not up, with SQLSTATE %q", in, se.code)
		}
	})
}
