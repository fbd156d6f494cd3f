package web

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"net/http"
	"net/url"
	"sync"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/web/api"
)

// The preview a shared link shows (Open Graph's og:image): PreviewWidth
// × PreviewHeight pixels, the size link previews ask for, served as
// /og.png: a board in play and the game's name; /og.png?g=CODE draws the
// position of that game (a shared link ?g=CODE names it). Open Graph
// wants the image's absolute address, which a server behind a proxy
// cannot know: with Config.PublicURL the page gives it; without, the
// page names it relative to itself, which many previews resolve.
const (
	PreviewWidth  = 1200
	PreviewHeight = 630
)

// previewMoves is the game drawn on the preview: a real 8x8 opening and
// a few jumps (a double one last), so that the board shows play.
var previewMoves = []string{"e5", "f5", "c5-e5", "f7-f5", "d6-f6", "e8-e6", "c7-e7", "h7-d7"}

// preview answers /og.png: the page's preview, drawn on the first
// request, or with ?g=CODE the position of that game (drawn on each
// request; a code that cannot be read gets the page's preview).
type preview struct {
	once sync.Once
	png  []byte
	err  error
}

func (p *preview) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var img []byte
	if rows, err := api.GameRows(r.URL.Query().Get("g")); err == nil {
		img, err = previewImage(rows)
		if err != nil {
			http.Error(w, "no preview", http.StatusInternalServerError)
			return
		}
	} else {
		p.once.Do(func() { p.png, p.err = previewDefault() })
		if p.err != nil {
			http.Error(w, "no preview", http.StatusInternalServerError)
			return
		}
		img = p.png
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	http.ServeContent(w, r, "og.png", time.Time{}, bytes.NewReader(img))
}

// previewDefault draws the page's preview: the board after previewMoves.
func previewDefault() ([]byte, error) {
	g, err := rules.NewGame(8)
	if err != nil {
		return nil, err
	}
	for _, m := range previewMoves {
		if _, err := g.PlayText(m); err != nil {
			return nil, fmt.Errorf("web: preview: %w", err)
		}
	}
	return previewImage(api.BoardRows(g.Position()))
}

// previewBoard is where previewImage draws a board of w files and h
// ranks: its top left corner and the side of a square, in pixels (the
// larger side 512 px, at the left, centred in height).
func previewBoard(w, h int) (x0, y0, sq int) {
	sq = 512 / max(w, h)
	return 59, (PreviewHeight - h*sq) / 2, sq
}

// parsePublicURL checks Config.PublicURL: an absolute http or https
// address without query or fragment; its path is made to end in "/".
func parsePublicURL(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return "", fmt.Errorf("web: public URL %q: %w", s, err)
	case u.Scheme != "http" && u.Scheme != "https", u.Host == "":
		return "", fmt.Errorf("web: public URL %q: want an absolute http:// or https:// address", s)
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return "", fmt.Errorf("web: public URL %q: want no query, fragment or user", s)
	}
	if u.Path == "" || u.Path[len(u.Path)-1] != '/' {
		u.Path += "/"
	}
	return u.String(), nil
}

// previewImage draws a preview: the page's background, the board of
// rows (top rank first, x black, o white, . empty) in the page's colours
// (previewBoard), and the game's name.
func previewImage(rows []string) ([]byte, error) {
	h, w := len(rows), len(rows[0])
	img := image.NewRGBA(image.Rect(0, 0, PreviewWidth, PreviewHeight))
	fill(img, img.Bounds(), color.RGBA{0xf6, 0xf1, 0xe7, 0xff}) // --bg
	x0, y0, sq := previewBoard(w, h)
	fill(img, image.Rect(x0-8, y0-8, x0+w*sq+8, y0+h*sq+8), color.RGBA{0x8a, 0x62, 0x32, 0xff}) // --wood-dark
	fill(img, image.Rect(x0, y0, x0+w*sq, y0+h*sq), color.RGBA{0xd9, 0xb2, 0x7c, 0xff})         // --wood
	line := color.RGBA{0x8a, 0x62, 0x32, 0xff}
	for i := 1; i < w; i++ {
		fill(img, image.Rect(x0+i*sq, y0, x0+i*sq+1, y0+h*sq), line)
	}
	for i := 1; i < h; i++ {
		fill(img, image.Rect(x0, y0+i*sq, x0+w*sq, y0+i*sq+1), line)
	}
	for i, row := range rows {
		for col, c := range row {
			if c != 'x' && c != 'o' {
				continue
			}
			cx := float64(x0) + (float64(col)+0.5)*float64(sq)
			cy := float64(y0) + (float64(i)+0.5)*float64(sq)
			stone(img, cx, cy, 0.38*float64(sq), c == 'x')
		}
	}
	f, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return nil, fmt.Errorf("web: preview: %w", err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 132, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("web: preview: %w", err)
	}
	defer face.Close()
	d := &font.Drawer{Dst: img, Src: image.NewUniform(color.RGBA{0x1d, 0x1b, 0x18, 0xff}), Face: face}
	const title = "Kōnane"
	left := x0 + w*sq + 8
	tw := d.MeasureString(title).Ceil()
	d.Dot = fixed.P(left+(PreviewWidth-left-tw)/2, PreviewHeight/2+44)
	d.DrawString(title)
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, fmt.Errorf("web: preview: %w", err)
	}
	return b.Bytes(), nil
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// stone draws a stone of radius r at (cx, cy) as the page does: a radial
// gradient lit from the upper left, a soft shadow, the edge smoothed.
func stone(img *image.RGBA, cx, cy, r float64, black bool) {
	lo, hi := [3]float64{0x11, 0x11, 0x11}, [3]float64{0x55, 0x55, 0x55}
	if !black {
		lo, hi = [3]float64{0xcf, 0xcf, 0xcf}, [3]float64{0xff, 0xff, 0xff}
	}
	lx, ly := cx-0.3*r, cy-0.3*r // the light, at 35% 35% of the stone's box
	for y := int(cy - r - 4); y <= int(cy+r+6); y++ {
		for x := int(cx - r - 4); x <= int(cx+r+6); x++ {
			px, py := float64(x)+0.5, float64(y)+0.5
			// The shadow: 2 px down, fading over 3 px.
			if a := 0.4 * clamp01((r+2-math.Hypot(px-cx, py-cy-2))/3); a > 0 {
				blend(img, x, y, [3]float64{0, 0, 0}, a)
			}
			cover := clamp01(r - math.Hypot(px-cx, py-cy) + 0.5)
			if cover == 0 {
				continue
			}
			t := clamp01(math.Hypot(px-lx, py-ly) / (1.3 * r))
			var c [3]float64
			for i := range c {
				c[i] = hi[i] + (lo[i]-hi[i])*t
			}
			blend(img, x, y, c, cover)
		}
	}
}

func blend(img *image.RGBA, x, y int, c [3]float64, a float64) {
	if !(image.Point{x, y}.In(img.Bounds())) {
		return
	}
	o := img.RGBAAt(x, y)
	mix := func(old uint8, new float64) uint8 { return uint8(math.Round(float64(old)*(1-a) + new*a)) }
	img.SetRGBA(x, y, color.RGBA{mix(o.R, c[0]), mix(o.G, c[1]), mix(o.B, c[2]), 0xff})
}

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }
