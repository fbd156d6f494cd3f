package web

import (
	"bytes"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/web/api"
	"github.com/konanezero/konane/web/messages"
)

// TestPreview: with Config.PublicURL the page names its preview image by
// its absolute address (Open Graph wants one), in every language; without
// it, by its address relative to the page; a shared link's page (?g=CODE)
// names its game's preview, /og.png?g=CODE, which draws that position;
// /og.png is a PNG of the size previews ask for, with the board and its
// stones drawn.
func TestPreview(t *testing.T) {
	engines := agenttest.RunEngines(t)
	ts := newTestServer(t, Config{API: api.Config{Engines: engines}, PublicURL: "https://konane.example.org/play"})
	get := func(url string) string {
		t.Helper()
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: %d %v", url, resp.StatusCode, err)
		}
		return string(b)
	}
	for _, lang := range messages.Codes() {
		page := get(ts.url + "/?lang=" + lang)
		for _, want := range []string{
			`<meta property="og:url" content="https://konane.example.org/play/">`,
			`<meta property="og:image" content="https://konane.example.org/play/og.png">`,
			`<meta property="og:image:width" content="1200">`,
			`<meta property="og:image:alt" content="` + ts.msgs[lang]["page.ogImageAlt"] + `">`,
			`<meta name="twitter:card" content="summary_large_image">`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("the %s page has no %s", lang, want)
			}
		}
	}
	plain := newTestServer(t, Config{API: api.Config{Engines: engines}})
	if page := get(plain.url + "/"); !strings.Contains(page, `<meta property="og:image" content="og.png">`) || strings.Contains(page, "og:url") || !strings.Contains(page, `og:title`) {
		t.Error("without a public URL the page does not name its og:image relative to itself, names an og:url, or has no og:title")
	}
	// A shared link's game: the page's preview is the game's position.
	const code = "1.6b.easy.0.a1.a2.c1-a1"
	if page := get(ts.url + "/?g=" + code); !strings.Contains(page, `<meta property="og:image" content="https://konane.example.org/play/og.png?g=`+code+`">`) {
		t.Error("a shared link's page does not name its game's preview")
	}
	if page := get(plain.url + "/?g=1.6b.easy.0.a1.a1"); !strings.Contains(page, `<meta property="og:image" content="og.png">`) {
		t.Error("a link with an illegal game does not keep the page's own preview")
	}
	shot, err := png.Decode(strings.NewReader(get(plain.url + "/og.png?g=" + code)))
	if err != nil {
		t.Fatal(err)
	}
	// 6x6 after a1 a2 c1-a1: a1 black, b1 (captured) and c1 (moved) and
	// a2 (removed) empty, a3 black; the squares 512/6 = 85 px.
	at6 := func(col, row int) color.RGBA {
		x0, y0, sq := previewBoard(6, 6)
		return color.RGBAModel.Convert(shot.At(x0+col*sq+sq/2, y0+(5-row)*sq+sq/2)).(color.RGBA)
	}
	wood := color.RGBA{0xd9, 0xb2, 0x7c, 0xff}
	if a1, b1, c1, a2, a3 := at6(0, 0), at6(1, 0), at6(2, 0), at6(0, 1), at6(0, 2); a1.R > 0x60 || b1 != wood || c1 != wood || a2 != wood || a3.R > 0x60 {
		t.Errorf("the preview of %s: a1 %v, b1 %v, c1 %v, a2 %v, a3 %v", code, a1, b1, c1, a2, a3)
	}
	if b := shot.Bounds(); b.Dx() != PreviewWidth || b.Dy() != PreviewHeight {
		t.Errorf("the game's preview is %v", b)
	}
	if dir := os.Getenv("KONANE_SCREENSHOTS"); dir != "" {
		os.WriteFile(dir+"/og-game.png", []byte(get(plain.url+"/og.png?g="+code)), 0o644)
	}

	resp, err := http.Get(plain.url + "/og.png")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || len(body) > 100<<10 {
		t.Fatalf("/og.png: %d %s, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
	}
	img, err := png.Decode(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != PreviewWidth || b.Dy() != PreviewHeight {
		t.Errorf("the preview is %v", b)
	}
	// The board's a1 (bottom left) holds a black stone, b1 a white one;
	// e8 is empty after the preview's moves (the wood shows).
	at := func(col, row int) color.RGBA {
		x, y := 59+col*64+32, (PreviewHeight-512)/2+(7-row)*64+32
		return color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
	}
	if c := at(0, 0); c.R > 0x60 {
		t.Errorf("a1 is %v, not a black stone", c)
	}
	if c := at(1, 0); c.R < 0xd0 || c.B < 0xd0 {
		t.Errorf("b1 is %v, not a white stone", c)
	}
	if c := at(4, 7); c != (color.RGBA{0xd9, 0xb2, 0x7c, 0xff}) {
		t.Errorf("e8 is %v, not the empty board's wood", c)
	}
	if dir := os.Getenv("KONANE_SCREENSHOTS"); dir != "" {
		os.WriteFile(dir+"/og.png", body, 0o644)
	}
	if resp, err := http.Post(plain.url+"/og.png", "text/plain", nil); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /og.png: %v %v", resp.Status, err)
	}

	for _, bad := range []string{"konane.example.org", "ftp://konane.example.org/", "https://konane.example.org/?x=1", "https://konane.example.org/#g", "https:///x", "https://u:p@konane.example.org/"} {
		if _, err := New(Config{API: api.Config{Engines: engines}, PublicURL: bad}); err == nil {
			t.Errorf("New took the public URL %q", bad)
		}
	}
	if u, err := parsePublicURL("http://localhost:8080"); err != nil || u != "http://localhost:8080/" {
		t.Errorf("parsePublicURL: %q, %v", u, err)
	}
}
