// Package apitest gives the tests of the play service and of what serves
// it (web/api, web) one way to ask the JSON API.
package apitest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// Call sends a request to url, a POST of body as JSON when body is not ""
// and a GET otherwise, decodes the JSON answer into out and returns the
// status code. It fails t if the request fails or the answer is not JSON.
func Call(t testing.TB, url, body string, out any) int {
	t.Helper()
	var resp *http.Response
	var err error
	if body == "" {
		resp, err = http.Get(url)
	} else {
		resp, err = http.Post(url, "application/json", strings.NewReader(body))
	}
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("%s: content type %q", url, ct)
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	return resp.StatusCode
}
