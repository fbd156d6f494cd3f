package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/internal/golden"
)

// sources returns the files that may use message keys: the package's Go
// files (not the tests, nor doc.go, whose examples are no uses) and the
// page's files.
func sources(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") && e.Name() != "doc.go" {
			data, err := os.ReadFile(e.Name())
			if err != nil {
				t.Fatal(err)
			}
			out[e.Name()] = string(data)
		}
	}
	files, err := static.ReadDir("static")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := static.ReadFile("static/" + f.Name())
		if err != nil {
			t.Fatal(err)
		}
		out["static/"+f.Name()] = string(data)
	}
	return out
}

// The ways code names a message: t("key") in the script, {{t "key"}} in
// the page template, newMsg("key") and badRequest("key") in Go.
var keyCall = regexp.MustCompile(`(?:\b(?:t|newMsg|badRequest)\(|\{\{t )"([^"]+)"`)

// TestCatalog: every language has every key of English with the same
// parameters; every key the code uses is in the catalog, and every key of
// the catalog is used somewhere, written out in full.
func TestCatalog(t *testing.T) {
	c, err := loadCatalog()
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
	// Every level has its name.
	for _, l := range agent.Levels() {
		if _, ok := c["en"]["level."+l.Name]; !ok {
			t.Errorf("level %s has no name in the catalog (add level.%s, and to levelKeys in app.js)", l.Name, l.Name)
		}
	}
	// Every language's file is complete: the check the server runs at
	// start (and fails on) finds each kind of fault.
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(c catalog)
		want   string
	}{
		{"missing", func(c catalog) { delete(c["sv"], "page.title") }, `messages/sv.json: no "page.title"`},
		{"extra", func(c catalog) { c["pt-BR"]["page.bogus"] = "x" }, `messages/pt-BR.json: "page.bogus" is not in en.json`},
		{"parameters", func(c catalog) { c["de"]["error.move"] = "Ungültig: {zug}" }, `messages/de.json: "error.move" has parameters [{zug}], English [{move}]`},
	} {
		broken := catalog{}
		for code, m := range c {
			broken[code] = maps.Clone(m)
		}
		tc.change(broken)
		if err := broken.check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
		}
	}
}

func TestRender(t *testing.T) {
	c, err := loadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	m := c.render("de", newMsg("error.size", "size", "7", "sizes", sizeNames([]int{6, 8})))
	if want := "Für 7×7-Bretter gibt es keinen Computergegner (es gibt einen für 6×6, 8×8)."; m.Text != want {
		t.Errorf("rendered %q, want %q", m.Text, want)
	}
	if got := c.text("en", "error.move", nil); got != "“{move}” is not a legal move here." {
		t.Errorf("a missing parameter shows as %q", got)
	}
	if got := c.text("en", "no.such.key", nil); got != "no.such.key" {
		t.Errorf("a missing key shows as %q", got)
	}
}

func TestNegotiate(t *testing.T) {
	for _, tc := range []struct {
		query, cookie, accept string
		want                  string
	}{
		{"", "", "", "en"},
		{"", "", "de-CH,de;q=0.9,en;q=0.8", "de"},
		{"", "", "pt-BR,pt;q=0.9", "pt-BR"},
		{"", "", "pt;q=0.9", "pt-BR"},
		{"", "", "pt-PT,pt;q=0.9", "pt-BR"},
		{"", "", "sv-FI", "sv"},
		{"", "", "fr-FR,fr;q=0.9,it;q=0.5", "it"},
		{"", "", "fr-FR", "en"},
		{"", "", "en-US,de;q=0.5", "en"},
		{"", "", "garbage;;;q=x", "en"},
		{"", "sv", "de", "sv"},
		{"it", "sv", "de", "it"},
		{"pt-PT", "", "", "pt-BR"},
		{"xx", "", "de", "de"},
		{"", "%%bad", "it", "it"},
	} {
		r, _ := http.NewRequest("GET", "/?lang="+tc.query, nil)
		if tc.cookie != "" {
			r.AddCookie(&http.Cookie{Name: langCookie, Value: tc.cookie})
		}
		r.Header.Set("Accept-Language", tc.accept)
		if got := negotiate(r); got != tc.want {
			t.Errorf("?lang=%s, cookie %q, Accept-Language %q: %s, want %s", tc.query, tc.cookie, tc.accept, got, tc.want)
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
	for _, code := range langCodes {
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
		req.Header.Set("Accept-Language", code)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var st stateJSON
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
		if x.Name == langCookie {
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
	c, err := loadCatalog()
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
		if len(f) != 2 || !slices.Contains(langCodes[1:], f[0]) || c["en"][f[1]] == "" {
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
	for _, code := range langCodes[1:] {
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

// FuzzNegotiate: any ?lang=, cookie and Accept-Language give one of the
// page's languages, without a panic.
func FuzzNegotiate(f *testing.F) {
	for _, seed := range [][3]string{
		{"", "", "de-CH,de;q=0.9,en;q=0.8"},
		{"sv", "it", "pt-BR"},
		{"x-klingon", "%%", "*;q=0.1,fr;q=x"},
		{"zh-Hant-TW-u-ca-chinese", "", ",,,;;;"},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, query, cookie, accept string) {
		r, err := http.NewRequest("GET", "/", nil)
		if err != nil {
			t.Fatal(err)
		}
		r.URL.RawQuery = url.Values{"lang": {query}}.Encode()
		r.Header.Set("Cookie", langCookie+"="+cookie)
		r.Header.Set("Accept-Language", accept)
		if got := negotiate(r); !slices.Contains(langCodes, got) {
			t.Fatalf("?lang=%q, cookie %q, Accept-Language %q: %q", query, cookie, accept, got)
		}
		if code, ok := chosenLang(r); ok != slices.Contains(langCodes, code) {
			t.Fatalf("?lang=%q chooses %q, %v", query, code, ok)
		}
	})
}

// TestSizeWording: error.size names the computer player the same way in
// every language (not "an opponent of the computer") and writes every
// size alike, 7×7 and 6×6, never 6x6.
func TestSizeWording(t *testing.T) {
	c, err := loadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range langCodes {
		text := c.render(code, newMsg("error.size", "size", "7", "sizes", sizeNames([]int{6, 8}))).Text
		if strings.Contains(text, "6x6") || !strings.Contains(text, "7×7") || !strings.Contains(text, "6×6, 8×8") {
			t.Errorf("%s: %q mixes the ways of writing a size", code, text)
		}
		for _, wrong := range []string{"avversario del computer", "adversário do computador"} {
			if strings.Contains(text, wrong) {
				t.Errorf("%s: %q: the computer is the opponent, not its opponent's", code, text)
			}
		}
	}
}

// TestLevelNames: a level's name stands alone in the level menu and in
// the sentence status.levelChanged, so it is one word ("max", not
// "strongest" or "am stärksten", which break the sentence).
func TestLevelNames(t *testing.T) {
	c, err := loadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range langCodes {
		for _, key := range []string{"level.easy", "level.medium", "level.hard", "level.max"} {
			if name := c[code][key]; strings.ContainsAny(name, " ()") {
				t.Errorf("%s %s: %q is not one word", code, key, name)
			}
		}
		if name := c[code]["level.max"]; strings.HasPrefix(name, "strong") {
			t.Errorf("%s level.max: %q", code, name)
		}
	}
}

// TestPhrases: phrases the language review of issue 33 found unnatural or
// wrong stay out of the catalogs.
func TestPhrases(t *testing.T) {
	c, err := loadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	wrong := map[string][]string{
		"en":    {"papamu,"},
		"de":    {"lieber nicht würdest", "Du gewinnst!", "papamu,"},
		"sv":    {"Du vinner!", "Datorn vinner", "tvingad vinst", "papamu,"},
		"it":    {"pietra", "pietre", "Giochi {move}", "papamu,"},
		"pt-BR": {"onde ela cai", "papamu,"},
	}
	for code, phrases := range wrong {
		for key, text := range c[code] {
			for _, w := range phrases {
				if strings.Contains(strings.ToLower(text), strings.ToLower(w)) {
					t.Errorf("%s %s: %q has %q", code, key, text, w)
				}
			}
		}
	}
}
