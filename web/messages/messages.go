// Package messages is the catalog of every text a person reads on the
// play page and in the answers of its API, in five languages, and the
// choice of a request's language.
//
// A language's texts are one flat JSON object of key → text,
// <code>.json in this folder (en.json is the reference), with parameters
// in braces ("{move}"). Load checks that every language has every key of
// English with the same parameters. Code names a message by its key
// written out in full (New("error.move", "move", m)), never pieced
// together: the catalog test of package web looks for the literals.
package messages

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

// codes are the short names of languages, in the same order: the
// names of the message files, of ?lang= and of the lang cookie.
var codes = []string{"en", "de", "sv", "it", "pt-BR"}

// Codes returns the short names of the languages, English first.
func Codes() []string { return slices.Clone(codes) }

var matcher = language.NewMatcher(languages)

// Cookie is the name of the cookie that remembers the language chosen
// with the switch on the page.
const Cookie = "lang"

//go:embed *.json
var messageFiles embed.FS

// Catalog holds every text a person reads, per language code and key.
// Texts may hold parameters in braces, {move}, filled by Render.
type Catalog map[string]map[string]string

// placeholder is a parameter of a text: {name}.
var placeholder = regexp.MustCompile(`\{[a-zA-Z]+\}`)

// Load reads the message files and checks them (Check).
func Load() (Catalog, error) {
	c := Catalog{}
	for _, code := range codes {
		data, err := messageFiles.ReadFile(code + ".json")
		if err != nil {
			return nil, fmt.Errorf("messages: %w", err)
		}
		var m map[string]string
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, fmt.Errorf("messages: %s.json: %w", code, err)
		}
		c[code] = m
	}
	if err := c.Check(); err != nil {
		return nil, err
	}
	return c, nil
}

// Check reports the first language that lacks a key of English, has a
// key English has not, or has a text whose parameters differ from the
// English text's.
func (c Catalog) Check() error {
	for _, code := range codes[1:] {
		for _, key := range slices.Sorted(maps.Keys(c["en"])) {
			text, ok := c[code][key]
			if !ok {
				return fmt.Errorf("messages: %s.json: no %q", code, key)
			}
			if want, got := params(c["en"][key]), params(text); !slices.Equal(want, got) {
				return fmt.Errorf("messages: %s.json: %q has parameters %v, English %v", code, key, got, want)
			}
		}
		for _, key := range slices.Sorted(maps.Keys(c[code])) {
			if _, ok := c["en"][key]; !ok {
				return fmt.Errorf("messages: %s.json: %q is not in en.json", code, key)
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

// SizeNames writes board sizes for a page's texts as the texts write a
// size: "6×6, 8×8".
func SizeNames(sizes []int) string {
	parts := make([]string, len(sizes))
	for i, n := range sizes {
		parts[i] = fmt.Sprintf("%d×%d", n, n)
	}
	return strings.Join(parts, ", ")
}

// Message is a message for a person, as the API sends it: a key of the
// catalog and its parameters, and the text in the language of the request
// (for clients other than the page, which renders code and args itself,
// in its own language).
type Message struct {
	Code string            `json:"code"`
	Args map[string]string `json:"args,omitempty"`
	Text string            `json:"text"`
}

// New makes a message of key with parameters given as name, value
// pairs. A value longer than rules.MaxQuote (a client's input echoed) is
// cut to that, as rules.Quote does.
func New(key string, pairs ...string) Message {
	m := Message{Code: key}
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

// ForMove is the message about the move of ply ply (1-based: Black's
// first move is 1), black's key for a move of Black and white's for
// White's, with the other parameters pairs: {pair} is its number as people
// count moves, by Black/White pairs, and n keeps the ply for programs
// (the JSON counts plies).
func ForMove(black, white string, ply int, pairs ...string) Message {
	key := black
	if ply%2 == 0 {
		key = white
	}
	return New(key, append([]string{"n", fmt.Sprint(ply), "pair", fmt.Sprint((ply + 1) / 2)}, pairs...)...)
}

// Render fills in m.Text in language lang.
func (c Catalog) Render(lang string, m Message) Message {
	m.Text = c.Text(lang, m.Code, m.Args)
	return m
}

// Text is the text of key in lang with its parameters filled in. A key
// missing from the catalog (a bug the catalog test catches) shows as
// itself.
func (c Catalog) Text(lang, key string, args map[string]string) string {
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

// Negotiate returns the language code for r: the one named by ?lang=, else
// by the lang cookie (the page's switch), else the best match of
// Accept-Language, else English.
func Negotiate(r *http.Request) string {
	var prefs []language.Tag
	if t, err := language.Parse(r.URL.Query().Get("lang")); err == nil {
		prefs = append(prefs, t)
	}
	if c, err := r.Cookie(Cookie); err == nil {
		if t, err := language.Parse(c.Value); err == nil {
			prefs = append(prefs, t)
		}
	}
	accept, _, _ := language.ParseAcceptLanguage(r.Header.Get("Accept-Language"))
	prefs = append(prefs, accept...)
	_, i, _ := matcher.Match(prefs...) // no match: i = 0, English
	return codes[i]
}

// Chosen returns the language code that ?lang= names (de, pt-BR,
// sv-SE…) if the page speaks it, to be remembered in the cookie.
func Chosen(r *http.Request) (string, bool) {
	t, err := language.Parse(r.URL.Query().Get("lang"))
	if err != nil {
		return "", false
	}
	_, i, conf := matcher.Match(t)
	if conf < language.High {
		return "", false
	}
	return codes[i], true
}
