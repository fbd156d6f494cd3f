package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/internal/golden"
	"github.com/konanezero/konane/web/messages"
)

// sources returns the files that may use message keys: the Go files of
// the page and of the play service, its subfolder api (not the tests, nor
// doc.go, whose examples are no uses), and the page's static files.
func sources(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range []string{".", "api"} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") && e.Name() != "doc.go" {
				name := path.Join(dir, e.Name())
				data, err := os.ReadFile(name)
				if err != nil {
					t.Fatal(err)
				}
				out[name] = string(data)
			}
		}
	}
	err := fs.WalkDir(static, "static", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := static.ReadFile(name)
		out[name] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The ways code names a message: t("key") in the script, {{t "key"}} in
// the page template, messages.New("key") and badRequest("key") in Go.
var keyCall = regexp.MustCompile(`(?:\b(?:t|messages\.New|badRequest)\(|\{\{t )"([^"]+)"`)

// TestCatalog: every language has every key of English with the same
// parameters; every key the code uses is in the catalog, and every key of
// the catalog is used somewhere, written out in full.
func TestCatalog(t *testing.T) {
	c, err := messages.Load()
	if err != nil {
		t.Fatal(err)
	}
	src := sources(t)
	// Every key used exists.
	for name, text := range src {
		for _, m := range keyCall.FindAllStringSubmatch(text, -1) {
			if _, ok := c["en"][m[1]]; !ok {
				t.Errorf("%s uses message %q, which is not in messages/en.json", name, m[1])
			}
		}
	}
	// Every key exists in the code, as a quoted string.
	var all strings.Builder
	for _, text := range src {
		all.WriteString(text)
	}
	for _, key := range slices.Sorted(maps.Keys(c["en"])) {
		if !strings.Contains(all.String(), `"`+key+`"`) {
			t.Errorf("message %q of messages/en.json is used nowhere (keys are written out in full, never pieced together)", key)
		}
	}
	// Every level has its name and its description.
	for _, l := range agent.Levels() {
		if _, ok := c["en"]["level."+l.Name]; !ok {
			t.Errorf("level %s has no name in the catalog (add level.%s, and to levelKeys in i18n.js)", l.Name, l.Name)
		}
		if _, ok := c["en"]["level.about."+l.Name]; !ok {
			t.Errorf("level %s has no description in the catalog (add level.about.%s, and to levelAboutKeys in i18n.js)", l.Name, l.Name)
		}
	}
}

// TestPageLanguages: the page comes in the language of the request, says
// so in <html lang>, and remembers a language chosen by ?lang= in a
// cookie; the API's messages come in the same language.
func TestPageLanguages(t *testing.T) {
	ts := newTestServer(t, Config{})
	c := ts.msgs
	get := func(path, accept string, cookies ...*http.Cookie) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", ts.url+path, nil)
		req.Header.Set("Accept-Language", accept)
		for _, ck := range cookies {
			req.AddCookie(ck)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(body)
	}
	for _, code := range messages.Codes() {
		resp, body := get("/", code+";q=0.9")
		if !strings.Contains(body, `<html lang="`+code+`">`) || resp.Header.Get("Content-Language") != code {
			t.Errorf("Accept-Language %s: page in %s", code, resp.Header.Get("Content-Language"))
		}
		for _, key := range []string{"page.title", "page.new", "page.rules"} {
			if !strings.Contains(body, htmlText(c[code][key])) {
				t.Errorf("the %s page lacks %s %q", code, key, c[code][key])
			}
		}
		if strings.Contains(body, "{{") || !strings.Contains(resp.Header.Get("Vary"), "Accept-Language") {
			t.Errorf("the %s page: template left over or no Vary", code)
		}
		// The script's catalog is the language's.
		i := strings.Index(body, `<script id="catalog" type="application/json">`)
		j := strings.Index(body[i:], "</script>")
		var got map[string]string
		if err := json.Unmarshal([]byte(body[i+len(`<script id="catalog" type="application/json">`):i+j]), &got); err != nil || !maps.Equal(got, c[code]) {
			t.Errorf("the %s page's catalog: %v", code, err)
		}
		// The API answers in it.
		req, _ := http.NewRequest("POST", ts.url+"/api/v2/new", strings.NewReader(`{"size":6,"color":"black","level":"easy"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept-Language", code)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var st struct{ Message messages.Message }
		json.NewDecoder(r.Body).Decode(&st)
		r.Body.Close()
		if st.Message.Code != "status.removeBlack" || st.Message.Text != c[code]["status.removeBlack"] {
			t.Errorf("Accept-Language %s: message %+v", code, st.Message)
		}
	}
	// ?lang= wins over Accept-Language and sets the cookie, which then
	// wins over Accept-Language.
	resp, body := get("/?lang=sv", "de")
	var ck *http.Cookie
	for _, x := range resp.Cookies() {
		if x.Name == messages.Cookie {
			ck = x
		}
	}
	if !strings.Contains(body, `<html lang="sv">`) || ck == nil || ck.Value != "sv" || ck.MaxAge < 30*24*3600 {
		t.Fatalf("?lang=sv: cookie %v", ck)
	}
	if _, body := get("/", "de", ck); !strings.Contains(body, `<html lang="sv">`) {
		t.Error("the cookie does not keep the language")
	}
	if resp, _ := get("/?lang=fr", "it"); len(resp.Cookies()) != 0 || resp.Header.Get("Content-Language") != "it" {
		t.Errorf("?lang=fr: cookies %v, language %s", resp.Cookies(), resp.Header.Get("Content-Language"))
	}
}

// htmlText is text as html/template writes it in an element.
func htmlText(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '\'':
			b.WriteString("&#39;")
		case '"':
			b.WriteString("&#34;")
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestReviewList: messages/REVIEW.md lists every text not in English that
// no native speaker has checked yet (messages/reviewed.txt names those
// checked). go test ./web -run TestReviewList -update rewrites it.
func TestReviewList(t *testing.T) {
	c, err := messages.Load()
	if err != nil {
		t.Fatal(err)
	}
	reviewed := map[string]bool{}
	data, err := os.ReadFile("messages/reviewed.txt")
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 || !slices.Contains(messages.Codes()[1:], f[0]) || c["en"][f[1]] == "" {
			t.Errorf("messages/reviewed.txt:%d: %q: want a language code (not en) and a key of the catalog", i+1, line)
			continue
		}
		reviewed[f[0]+" "+f[1]] = true
	}
	var b strings.Builder
	b.WriteString("# Texts wanting a native speaker's review\n\n" +
		"The texts of the page in German, Swedish, Italian and Portuguese were written by the developers with the\n" +
		"terms of the rules pages that send players here; none is checked by a native speaker yet. To review: correct\n" +
		"the text in `web/messages/<lang>.json`, add a line `<lang> <key>` to `web/messages/reviewed.txt`, and\n" +
		"regenerate this list with `go test ./web -run TestReviewList -update` (the test fails when it is stale).\n")
	for _, code := range messages.Codes()[1:] {
		var rows []string
		for _, key := range slices.Sorted(maps.Keys(c[code])) {
			if !reviewed[code+" "+key] {
				rows = append(rows, fmt.Sprintf("| %s | %s | %s |\n", key, cell(c["en"][key]), cell(c[code][key])))
			}
		}
		fmt.Fprintf(&b, "\n## %s (%s): %d of %d\n\n| key | English | %s |\n|---|---|---|\n", c[code]["page.langName"], code, len(rows), len(c[code]), c[code]["page.langName"])
		b.WriteString(strings.Join(rows, ""))
	}
	const name = "messages/REVIEW.md"
	if *golden.Update {
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old, err := os.ReadFile(name)
	if err != nil || string(old) != b.String() {
		t.Errorf("%s is not up to date (%v): run go test ./web -run TestReviewList -update", name, err)
	}
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
