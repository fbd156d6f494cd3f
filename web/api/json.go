package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/web/messages"
)

// apiError is an error answered to the client: its status code, the
// message for a person (a catalog key and parameters) and, where there is
// one, the underlying error in English for developers.
type apiError struct {
	code   int
	msg    messages.Message
	detail error
	retry  int // seconds of Retry-After (503, 429); 0 = 5
}

// failure is the API's error of a search that failed, 503: the message
// timedOut when it ran out of its time budget, broken for anything else
// (an evaluator fault), so that a player is not told to retry in time
// when time was not the cause. The detail, err, goes to the server's log
// either way.
func failure(err error, timedOut, broken string) *apiError {
	msg := messages.New(broken)
	if errors.Is(err, context.DeadlineExceeded) {
		msg = messages.New(timedOut)
	}
	return &apiError{code: http.StatusServiceUnavailable, msg: msg, detail: err}
}

func (e *apiError) Error() string {
	s := e.msg.Code
	if e.detail != nil {
		s += ": " + e.detail.Error()
	}
	return s
}

func (e *apiError) Unwrap() error { return e.detail }

// badRequest is a 400 answer with the message of key and its parameters
// as name, value pairs.
func badRequest(key string, pairs ...string) error {
	return &apiError{code: http.StatusBadRequest, msg: messages.New(key, pairs...)}
}

func methodNotAllowed(w http.ResponseWriter, allow string) error {
	w.Header().Set("Allow", allow)
	return &apiError{code: http.StatusMethodNotAllowed, msg: messages.New("error.method", "method", allow)}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v) // a failed write has no one left to tell
}

// errorJSON is an error answer: error is the message in the language of
// the request, code and args the message for the page to render in its
// own, detail the underlying error in English (for developers).
type errorJSON struct {
	Error  string            `json:"error"`
	Code   string            `json:"code"`
	Args   map[string]string `json:"args,omitempty"`
	Detail string            `json:"detail,omitempty"`
}

// maxDetail bounds the detail of an error answer, in bytes.
const maxDetail = 3 * rules.MaxQuote

// decode reads the JSON body into v: one object with known fields only
// (null, arrays and other values are refused, not read as an empty object).
func decode(r *http.Request, v any) error {
	body, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return &apiError{code: http.StatusRequestEntityTooLarge, msg: messages.New("error.tooLarge", "limit", fmt.Sprint(tooBig.Limit))}
	}
	body = bytes.TrimLeft(body, " \t\r\n")
	switch {
	case err != nil:
		return &apiError{code: http.StatusBadRequest, msg: messages.New("error.malformed"), detail: err}
	case len(body) == 0:
		return badRequest("error.emptyBody")
	case body[0] != '{':
		return &apiError{code: http.StatusBadRequest, msg: messages.New("error.malformed"), detail: errors.New("the body is not a JSON object")}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err = dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value")
	}
	if err == nil {
		if _, e := dec.Token(); e != io.EOF {
			err = errors.New("data after the JSON object")
		}
	}
	if err != nil {
		return &apiError{code: http.StatusBadRequest, msg: messages.New("error.malformed"), detail: err}
	}
	return nil
}

// round3 rounds a probability to the three decimals the JSON carries.
func round3(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }
