package scene

import (
	"image/color"
	"math"
)

// Noise-ratio colour scale: the ratio ‖noise‖/‖signal‖ is mapped on a log
// scale from RatioLow (t = 0, signal-dominated, cool blue-green) through 1
// (t = ½, amber) to RatioHigh (t = 1, noise-dominated, red).
const (
	RatioLow  = 0.01
	RatioHigh = 100
	// RatioCap bounds the ratio a packet reports (zero signal, infinities).
	RatioCap = 1e6
)

// The scene's fixed colours. Like every color.RGBA, they are
// alpha-premultiplied.
var (
	Background = color.RGBA{0xf7, 0xf8, 0xfb, 0xff}
	PanelFill  = color.RGBA{0xff, 0xff, 0xff, 0xff}
	PanelLine  = color.RGBA{0xe1, 0xe5, 0xee, 0xff}
	EdgeColor  = color.RGBA{0xc3, 0xc9, 0xd5, 0xff}
	NodeLine   = color.RGBA{0x2b, 0x30, 0x3b, 0xff}
	GridColor  = color.RGBA{0xec, 0xef, 0xf4, 0xff}
	AxisColor  = color.RGBA{0xc9, 0xcf, 0xdb, 0xff}
	TargetInk  = color.RGBA{0x5b, 0x62, 0x70, 0xff}
	OptimumInk = color.RGBA{0xf2, 0xb7, 0x05, 0xff}
	ActiveRing = withAlpha(NodeLine, 0.45)
	PacketHalo = withAlpha(color.RGBA{0xff, 0xff, 0xff, 0xff}, 0.9)
)

// nodePalette is cycled over the agents. It keeps to blues, violets,
// greens and pinks so that nodes do not read as amber or red packets.
var nodePalette = []color.RGBA{
	{0x5b, 0x8d, 0xef, 0xff}, // blue
	{0x9b, 0x7e, 0xde, 0xff}, // violet
	{0x4f, 0xb3, 0x9a, 0xff}, // sea green
	{0xe2, 0x7f, 0xb0, 0xff}, // pink
	{0x7f, 0xb3, 0x5b, 0xff}, // leaf
	{0x6c, 0x7b, 0xd1, 0xff}, // indigo
	{0x4f, 0xb0, 0xd9, 0xff}, // sky
	{0xc5, 0x8f, 0xd6, 0xff}, // lilac
	{0x8f, 0x9b, 0xb3, 0xff}, // slate
	{0x3f, 0x9e, 0xc4, 0xff}, // cerulean
	{0xa3, 0xc9, 0x6b, 0xff}, // lime
	{0xb4, 0x86, 0xb8, 0xff}, // mauve
}

// NodeColor returns agent i's colour (the palette cycles).
func NodeColor(i int) color.RGBA {
	if i < 0 {
		i = -i
	}
	return nodePalette[i%len(nodePalette)]
}

// ratioStops is the ramp, evenly spaced in t. Every channel is monotone
// between stops and the red component grows along the ramp.
var ratioStops = []color.RGBA{
	{0x18, 0xa0, 0xaa, 0xff}, // t = 0    ratio ≤ 0.01: teal
	{0x5a, 0xb4, 0x6e, 0xff}, // t = 0.25 ratio 0.1: green
	{0xec, 0xa8, 0x1c, 0xff}, // t = 0.5  ratio 1: amber
	{0xf0, 0x6e, 0x28, 0xff}, // t = 0.75 ratio 10: orange
	{0xf2, 0x2e, 0x3a, 0xff}, // t = 1    ratio ≥ 100: red
}

// RatioT maps a noise ratio to [0, 1] on the log scale between RatioLow
// and RatioHigh (clamped). NaN counts as noise-dominated.
func RatioT(ratio float64) float64 {
	if math.IsNaN(ratio) {
		return 1
	}
	if ratio <= RatioLow {
		return 0
	}
	if ratio >= RatioHigh {
		return 1
	}
	lo, hi := float64(math.Log10(RatioLow)), float64(math.Log10(RatioHigh))
	return (float64(math.Log10(ratio)) - lo) / (hi - lo)
}

// RampColor returns the ramp colour at t in [0, 1] (clamped).
func RampColor(t float64) color.RGBA {
	if !(t > 0) {
		return ratioStops[0]
	}
	if t >= 1 {
		return ratioStops[len(ratioStops)-1]
	}
	x := float64(t * float64(len(ratioStops)-1))
	k := int(x)
	f := x - float64(k)
	a, b := ratioStops[k], ratioStops[k+1]
	lerp := func(p, q uint8) uint8 { return uint8(math.Round(float64(p) + float64(f*(float64(q)-float64(p))))) }
	return color.RGBA{lerp(a.R, b.R), lerp(a.G, b.G), lerp(a.B, b.B), 0xff}
}

// RatioColor is the packet colour for a noise ratio.
func RatioColor(ratio float64) color.RGBA { return RampColor(RatioT(ratio)) }

// RatioSize is the packet size factor for a noise ratio: 0.8 for
// signal-dominated packets up to 1.6 for noise-dominated ones.
func RatioSize(ratio float64) float64 { return 0.8 + float64(0.8*RatioT(ratio)) }

// withAlpha returns c with its opacity scaled by a in [0, 1] (every
// component scales, as color.RGBA is alpha-premultiplied).
func withAlpha(c color.RGBA, a float64) color.RGBA {
	a = min(1, max(0, a))
	sc := func(v uint8) uint8 { return uint8(math.Round(float64(v) * a)) }
	return color.RGBA{sc(c.R), sc(c.G), sc(c.B), sc(c.A)}
}
