package api

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestConfigDocFields: docs/http-api.md's row of GET /api/v2/config
// names the boards' and the levels' fields by their JSON keys, all of
// them, in the order of boardInfoJSON and levelJSON.
func TestConfigDocFields(t *testing.T) {
	doc, err := os.ReadFile("../../docs/http-api.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		list string
		typ  reflect.Type
	}{{"boards", reflect.TypeOf(boardInfoJSON{})}, {"levels", reflect.TypeOf(levelJSON{})}} {
		m := regexp.MustCompile(c.list + `: \[\{([a-zA-Z, ]+)\}\]`).FindSubmatch(doc)
		if m == nil {
			t.Errorf("docs/http-api.md names no %s: [{...}]", c.list)
			continue
		}
		var keys []string
		for i := 0; i < c.typ.NumField(); i++ {
			keys = append(keys, strings.Split(c.typ.Field(i).Tag.Get("json"), ",")[0])
		}
		if got, want := string(m[1]), strings.Join(keys, ", "); got != want {
			t.Errorf("docs/http-api.md: %s: [{%s}], the JSON keys are %s", c.list, got, want)
		}
	}
}
