package web

import (
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/text/language"

	"github.com/konanezero/konane/rules"
)

// The languages of the page, English first: it is the fallback, and its
// file is the reference the others are checked against.
var languages = []language.Tag{language.English, language.German, language.Swedish, language.Italian, language.BrazilianPortuguese}

// langCodes are the short names of languages, in the same order: the
// names of the message files, of ?lang= and of the lang cookie.
var langCodes = []string{"en", "de", "sv", "it", "pt-BR"}

var matcher = language.NewMatcher(languages)

// langCookie remembers the language chosen with the switch on the page.
const langCookie = "lang"

//go:embed messages/*.json
var messageFiles embed.FS

// catalog holds every text a person reads, per language code and key.
// Texts may hold parameters in braces, {move}, filled by render.
type catalog map[string]map[string]string

// placeholder is a parameter of a text: {name}.
var placeholder = regexp.MustCompile(`\{[a-zA-Z]+\}`)

// loadCatalog reads the message files and checks them (check).
func loadCatalog() (catalog, error) {
	c := catalog{}
	for _, code := range langCodes {
		data, err := messageFiles.ReadFile("messages/" + code + ".json")
		if err != nil {
			return nil, fmt.Errorf("web: messages: %w", err)
		}
		var m map[string]string
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, fmt.Errorf("web: messages/%s.json: %w", code, err)
		}
		c[code] = m
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	return c, nil
}

// check reports the first language that lacks a key of English, has a
// key English has not, or has a text whose parameters differ from the
// English text's.
func (c catalog) check() error {
	for _, code := range langCodes[1:] {
		for _, key := range slices.Sorted(maps.Keys(c["en"])) {
			text, ok := c[code][key]
			if !ok {
				return fmt.Errorf("web: messages/%s.json: no %q", code, key)
			}
			if want, got := params(c["en"][key]), params(text); !slices.Equal(want, got) {
				return fmt.Errorf("web: messages/%s.json: %q has parameters %v, English %v", code, key, got, want)
			}
		}
		for _, key := range slices.Sorted(maps.Keys(c[code])) {
			if _, ok := c["en"][key]; !ok {
				return fmt.Errorf("web: messages/%s.json: %q is not in en.json", code, key)
			}
		}
	}
	return nil
}

// params returns the sorted parameters of a text.
func params(text string) []string {
	ps := placeholder.FindAllString(text, -1)
	slices.Sort(ps)
	return slices.Compact(ps)
}

// sizeNames writes board sizes for a page's texts as the texts write a
// size: "6×6, 8×8".
func sizeNames(sizes []int) string {
	parts := make([]string, len(sizes))
	for i, n := range sizes {
		parts[i] = fmt.Sprintf("%d×%d", n, n)
	}
	return strings.Join(parts, ", ")
}

// msg is a message for a person, as the API sends it: a key of the
// catalog and its parameters, and the text in the language of the request
// (for clients other than the page, which renders code and args itself,
// in its own language).
type msg struct {
	Code string            `json:"code"`
	Args map[string]string `json:"args,omitempty"`
	Text string            `json:"text"`
}

// newMsg makes a message of key with parameters given as name, value
// pairs. A value longer than rules.MaxQuote (a client's input echoed) is
// cut to that, as rules.Quote does.
func newMsg(key string, pairs ...string) msg {
	m := msg{Code: key}
	if len(pairs) > 0 {
		m.Args = map[string]string{}
		for i := 0; i+1 < len(pairs); i += 2 {
			v := pairs[i+1]
			if len(v) > rules.MaxQuote {
				v = rules.Quote(v)
			}
			m.Args[pairs[i]] = v
		}
	}
	return m
}

// moveMsg is the message about the move of ply ply (1-based: Black's
// first move is 1), black's key for a move of Black and white's for
// White's, with the other parameters pairs: {pair} is its number as people
// count moves, by Black/White pairs, and n keeps the ply for programs
// (the JSON counts plies).
func moveMsg(black, white string, ply int, pairs ...string) msg {
	key := black
	if ply%2 == 0 {
		key = white
	}
	return newMsg(key, append([]string{"n", fmt.Sprint(ply), "pair", fmt.Sprint((ply + 1) / 2)}, pairs...)...)
}

// render fills in m.Text in language lang.
func (c catalog) render(lang string, m msg) msg {
	m.Text = c.text(lang, m.Code, m.Args)
	return m
}

// text is the text of key in lang with its parameters filled in. A key
// missing from the catalog (a bug the catalog test catches) shows as
// itself.
func (c catalog) text(lang, key string, args map[string]string) string {
	t, ok := c[lang][key]
	if !ok {
		return key
	}
	return placeholder.ReplaceAllStringFunc(t, func(p string) string {
		if v, ok := args[p[1:len(p)-1]]; ok {
			return v
		}
		return p
	})
}

// negotiate returns the language code for r: the one named by ?lang=, else
// by the lang cookie (the page's switch), else the best match of
// Accept-Language, else English.
func negotiate(r *http.Request) string {
	var prefs []language.Tag
	if t, err := language.Parse(r.URL.Query().Get("lang")); err == nil {
		prefs = append(prefs, t)
	}
	if c, err := r.Cookie(langCookie); err == nil {
		if t, err := language.Parse(c.Value); err == nil {
			prefs = append(prefs, t)
		}
	}
	accept, _, _ := language.ParseAcceptLanguage(r.Header.Get("Accept-Language"))
	prefs = append(prefs, accept...)
	_, i, _ := matcher.Match(prefs...) // no match: i = 0, English
	return langCodes[i]
}

// chosenLang returns the language code that ?lang= names (de, pt-BR,
// sv-SE…) if the page speaks it, to be remembered in the cookie.
func chosenLang(r *http.Request) (string, bool) {
	t, err := language.Parse(r.URL.Query().Get("lang"))
	if err != nil {
		return "", false
	}
	_, i, conf := matcher.Match(t)
	if conf < language.High {
		return "", false
	}
	return langCodes[i], true
}
