package figure

import (
	"strings"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// glyphFallback spells the symbols the figures' font (gonum/plot's
// Liberation) has no glyph for with ones it has, so that a title such as
// ‖(1/N)Σ∇f_i‖² does not lose its ∇ in the PNG and PDF (the SVG would
// name the font and leave the choice to the viewer).
var glyphFallback = map[rune]string{
	'∇': "grad ",
	'∈': " in ",
	'∉': " not in ",
	'∝': " ~ ",
	'≳': " >~ ",
	'≲': " <~ ",
	'≫': " >> ",
	'≪': " << ",
	'⁰': "^0",
	'⁴': "^4",
	'⁵': "^5",
	'⁶': "^6",
	'⁷': "^7",
	'⁸': "^8",
	'⁹': "^9",
	'⁻': "^-",
	'₀': "_0",
	'₁': "_1",
	'₂': "_2",
	'ᵀ': "^T",
}

// glyphs is the text handler of every figure: gonum/plot's plain handler
// with glyphFallback applied to the runes the font lacks.
var glyphs text.Handler = fallbackHandler{Plain: text.Plain{Fonts: font.DefaultCache}}

type fallbackHandler struct{ text.Plain }

func (h fallbackHandler) Lines(txt string) []string { return h.Plain.Lines(spell(txt)) }

func (h fallbackHandler) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	return h.Plain.Box(spell(txt), fnt)
}

func (h fallbackHandler) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	h.Plain.Draw(c, spell(txt), sty, pt)
}

var (
	hasOnce  sync.Once
	hasGlyph func(rune) bool
)

// has reports whether the figures' font draws r.
func has(r rune) bool {
	hasOnce.Do(func() {
		f := font.From(plot.DefaultFont, 12)
		face := font.DefaultCache.Lookup(f, 12)
		var mu sync.Mutex
		hasGlyph = func(r rune) bool {
			mu.Lock() // the sfnt buffer is not safe for concurrent use
			defer mu.Unlock()
			i, err := face.Face.GlyphIndex(nil, r)
			return err == nil && i != 0
		}
	})
	return hasGlyph(r)
}

// spell returns txt with each rune the font lacks replaced by its
// fallback; runes without one are kept (the font draws its notdef box,
// which at least shows that something is there).
func spell(txt string) string {
	miss := false
	for _, r := range txt {
		if r >= 0x80 && !has(r) {
			if _, ok := glyphFallback[r]; ok {
				miss = true
				break
			}
		}
	}
	if !miss {
		return txt
	}
	var b strings.Builder
	for _, r := range txt {
		if f, ok := glyphFallback[r]; ok && !has(r) {
			b.WriteString(f)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// useGlyphs gives every text of p the fallback handler.
func useGlyphs(p *plot.Plot) {
	p.Title.TextStyle.Handler = glyphs
	p.Legend.TextStyle.Handler = glyphs
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Handler = glyphs
		ax.Tick.Label.Handler = glyphs
	}
}
