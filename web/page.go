package web

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"net/http"
	"net/url"

	"github.com/konanezero/konane/web/api"
	"github.com/konanezero/konane/web/messages"
)

// static holds the page's files: index.html (a template rendered by
// renderPages), the script's modules, the style sheet and the icon.
//
//go:embed static
var static embed.FS

// langOption is an entry of the page's language switch: each language
// named in itself.
type langOption struct {
	Code, Name string
	Selected   bool
}

// renderPages renders the page, static/index.html, in every language:
// {{t "page.title"}} is the text of a key, .Lang the language code, .Catalog all
// texts of the language (for the script), .Languages the switch and
// .PublicURL the page's public address ("" if not known; see
// Config.PublicURL).
func renderPages(c messages.Catalog, publicURL string) (pages, error) {
	src, err := static.ReadFile("static/index.html")
	if err != nil {
		return nil, fmt.Errorf("web: page: %w", err)
	}
	out := pages{}
	for _, code := range messages.Codes() {
		funcs := template.FuncMap{"t": func(key string) (string, error) {
			t, ok := c[code][key]
			if !ok {
				return "", fmt.Errorf("no message %q", key)
			}
			return t, nil
		}}
		tmpl, err := template.New("index.html").Funcs(funcs).Parse(string(src))
		if err != nil {
			return nil, fmt.Errorf("web: page: %w", err)
		}
		var opts []langOption
		for _, other := range messages.Codes() {
			opts = append(opts, langOption{other, c[other]["page.langName"], other == code})
		}
		var b bytes.Buffer
		err = tmpl.Execute(&b, struct {
			Lang      string
			Catalog   map[string]string
			Languages []langOption
			PublicURL string
		}{code, c[code], opts, publicURL})
		if err != nil {
			return nil, fmt.Errorf("web: page in %s: %w", code, err)
		}
		out[code] = b.Bytes()
	}
	return out, nil
}

// pages is the page rendered in each language, by language code.
type pages map[string][]byte

// ServeHTTP sends the page in the language of the request; a language
// named by ?lang= is remembered in a cookie for a year. A shared link's
// ?g=CODE makes the page's preview image that game's (/og.png?g=CODE).
func (p pages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	lang := messages.Negotiate(r)
	if chosen, ok := messages.Chosen(r); ok {
		http.SetCookie(w, &http.Cookie{Name: messages.Cookie, Value: chosen, Path: "/", MaxAge: 365 * 24 * 3600, SameSite: http.SameSiteLaxMode})
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Language", lang)
	h.Set("Vary", "Accept-Language, Cookie")
	h.Set("Cache-Control", "no-cache")
	page := p[lang]
	// A shared link's game (?g=CODE, which the page opens as #g=CODE):
	// its preview shows that game's position.
	if code := r.URL.Query().Get("g"); code != "" {
		if _, err := api.GameRows(code); err == nil {
			page = bytes.Replace(page, []byte(`og.png"`), []byte(`og.png?g=`+url.QueryEscape(code)+`"`), 1)
		}
	}
	w.Write(page)
}
