package messages

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestCheck: the check Load runs (and the server fails on) finds each
// kind of fault of a language's file.
func TestCheck(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(c Catalog)
		want   string
	}{
		{"missing", func(c Catalog) { delete(c["sv"], "page.title") }, `messages: sv.json: no "page.title"`},
		{"extra", func(c Catalog) { c["pt-BR"]["page.bogus"] = "x" }, `messages: pt-BR.json: "page.bogus" is not in en.json`},
		{"parameters", func(c Catalog) { c["de"]["error.move"] = "Ungültig: {zug}" }, `messages: de.json: "error.move" has parameters [{zug}], English [{move}]`},
	} {
		broken := Catalog{}
		for code, m := range c {
			broken[code] = maps.Clone(m)
		}
		tc.change(broken)
		if err := broken.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
		}
	}
}

func TestRender(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	m := c.Render("de", New("error.size", "size", "7", "sizes", SizeNames([]int{6, 8})))
	if want := "Für 7×7-Bretter gibt es keinen Computergegner (es gibt einen für 6×6, 8×8)."; m.Text != want {
		t.Errorf("rendered %q, want %q", m.Text, want)
	}
	if got := c.Text("en", "error.move", nil); got != "“{move}” is not a legal move here." {
		t.Errorf("a missing parameter shows as %q", got)
	}
	if got := c.Text("en", "no.such.key", nil); got != "no.such.key" {
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
			r.AddCookie(&http.Cookie{Name: Cookie, Value: tc.cookie})
		}
		r.Header.Set("Accept-Language", tc.accept)
		if got := Negotiate(r); got != tc.want {
			t.Errorf("?lang=%s, cookie %q, Accept-Language %q: %s, want %s", tc.query, tc.cookie, tc.accept, got, tc.want)
		}
	}
}

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
		r.Header.Set("Cookie", Cookie+"="+cookie)
		r.Header.Set("Accept-Language", accept)
		if got := Negotiate(r); !slices.Contains(codes, got) {
			t.Fatalf("?lang=%q, cookie %q, Accept-Language %q: %q", query, cookie, accept, got)
		}
		if code, ok := Chosen(r); ok != slices.Contains(codes, code) {
			t.Fatalf("?lang=%q chooses %q, %v", query, code, ok)
		}
	})
}

// TestSizeWording: error.size names the computer player the same way in
// every language (not "an opponent of the computer") and writes every
// size alike, 7×7 and 6×6, never 6x6.
func TestSizeWording(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range codes {
		text := c.Render(code, New("error.size", "size", "7", "sizes", SizeNames([]int{6, 8}))).Text
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
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range codes {
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
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	wrong := map[string][]string{
		"en":    {"papamu,"},
		"de":    {"lieber nicht würdest", "Du gewinnst!", "papamu,", " hält den Gewinn", "Zeichen:", "Hawaiianisch"},
		"sv":    {"Du vinner!", "Datorn vinner", "tvingad vinst", "papamu,", "inexakt", "Hawaiiansk", "Escape ångrar", "för att ångra", "ångrades"},
		"it":    {"pietra", "pietre", "Giochi {move}", "papamu,", "Sceglione", "accanto a lei", "Segni:"},
		"pt-BR": {"onde ela cai", "papamu,", "cair", "é legal", "jogada legal", "partida legal"},
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

// TestThemeLabel: the menu of light and dark is named for the page's
// look ("Theme"), not "Colours", which reads as the stones' colour.
func TestThemeLabel(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"en": "Theme", "de": "Design", "sv": "Tema", "it": "Tema", "pt-BR": "Tema"}
	for _, code := range codes {
		if got := c[code]["page.theme"]; got != want[code] {
			t.Errorf("%s page.theme = %q, want %q", code, got, want[code])
		}
	}
}
