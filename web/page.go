package web

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
)

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
func renderPages(c catalog, publicURL string) (map[string][]byte, error) {
	src, err := static.ReadFile("static/index.html")
	if err != nil {
		return nil, fmt.Errorf("web: page: %w", err)
	}
	pages := map[string][]byte{}
	for _, code := range langCodes {
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
		for _, other := range langCodes {
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
		pages[code] = b.Bytes()
	}
	return pages, nil
}

// page sends the page in the language of the request; a language named by
// ?lang= is remembered in a cookie for a year.
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	lang := negotiate(r)
	if chosen, ok := chosenLang(r); ok {
		http.SetCookie(w, &http.Cookie{Name: langCookie, Value: chosen, Path: "/", MaxAge: 365 * 24 * 3600, SameSite: http.SameSiteLaxMode})
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Language", lang)
	h.Set("Vary", "Accept-Language, Cookie")
	h.Set("Cache-Control", "no-cache")
	w.Write(s.pages[lang])
}
