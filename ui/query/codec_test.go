package query

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"reflect"
	"strings"
	"testing"

	"dpsim/core/scenario"
)

// deflate is raw deflate at level, in base64url: what a tool other than
// Encode may write.
func deflate(t testing.TB, text []byte, level int) string {
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, level)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(text)
	w.Close()
	return base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

func TestEncodeDecode(t *testing.T) {
	// Every preset goes through a link and back, byte for byte, and is
	// shorter for it.
	for _, p := range scenario.Presets() {
		s, err := scenario.PresetScenario(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		text := s.JSON()
		enc := Encode(text)
		if strings.ContainsAny(enc, "+/=%&#? ") {
			t.Errorf("%s: the parameter needs escapes: %.40q", p.Name, enc)
		}
		if len(enc) >= len(text) {
			t.Errorf("%s: %d characters for %d bytes of JSON", p.Name, len(enc), len(text))
		}
		got, err := Decode("scenario", enc)
		if err != nil || !bytes.Equal(got, text) {
			t.Fatalf("%s: round trip: %v", p.Name, err)
		}
	}
	// Other levels and padding decode too.
	text := []byte(`{"name": "x"}`)
	for _, v := range []string{deflate(t, text, flate.NoCompression), deflate(t, text, flate.BestSpeed), Encode(text) + "=="} {
		if got, err := Decode("scenario", v); err != nil || !bytes.Equal(got, text) {
			t.Errorf("%q: %q, %v", v, got, err)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	good := Encode([]byte(`{"name": "a scenario long enough to be cut in two"}`))
	bomb := deflate(t, bytes.Repeat([]byte(" "), MaxText+1), flate.BestCompression)
	if len(bomb) > 10000 {
		t.Fatalf("the bomb is %d characters: not a bomb", len(bomb))
	}
	cases := []struct{ key, v, want string }{
		{"scenario", "", "URL parameter scenario: is empty; it holds a compressed scenario (docs/url.md)"},
		{"compare", "", "URL parameter compare: is empty; it holds a compressed comparison"},
		{"scenario", "ab+c", "URL parameter scenario: is not base64url: character 3 is not one of"},
		{"scenario", "ab c", "URL parameter scenario: is not base64url: character 3"},
		{"scenario", "abcde", "URL parameter scenario: is not base64url: its 5 characters end mid-byte"},
		{"scenario", good[:len(good)/2], "URL parameter scenario: is cut short: the compressed scenario ends early"},
		{"scenario", "____", "URL parameter scenario: is not a compressed scenario: flate: corrupt input"},
		{"compare", bomb, "URL parameter compare: inflates to more than 4194304 bytes; the limit is 4194304"},
		{"scenario", Encode([]byte("[1, 2]")), `URL parameter scenario: does not hold a JSON object: it inflates to "[1, 2]"`},
		{"scenario", Encode(nil), `URL parameter scenario: does not hold a JSON object: it inflates to ""`},
		{"scenario", strings.Repeat("A", MaxEncoded+1), "URL parameter scenario: is 2097153 characters long; the limit is 2097152"},
	}
	for _, c := range cases {
		got, err := Decode(c.key, c.v)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%.30q: got %.30q, %v; want an error starting %q", c.v, got, err, c.want)
		}
		if err != nil && (strings.Contains(err.Error(), "\n") || len(err.Error()) > 300) {
			t.Errorf("%.30q: the error is not one short line: %q", c.v, err)
		}
	}
}

func TestLink(t *testing.T) {
	u := func(n uint64) *uint64 { return &n }
	f := func(x float64) *float64 { return &x }
	cases := []struct {
		p    Params
		link string
	}{
		{Params{}, ""},
		{Params{Preset: "gtdp-rendezvous", Seed: u(7)}, "?preset=gtdp-rendezvous&seed=7"},
		{Params{Preset: "p", Seed: u(0), Epsilon: f(0.5), Speed: f(2.5), Hide: []string{"plot", "editor"}, Classroom: true},
			"?preset=p&seed=0&epsilon=0.5&speed=2.5&hide=editor,plot&classroom"},
		{Params{Epsilon: f(1e-5), Speed: f(2000)}, "?epsilon=1e-05&speed=2000"},
		{Params{Epsilon: f(1e6)}, "?epsilon=1e06"},
		{Params{Hide: []string{"nonsense"}}, ""},
	}
	for _, c := range cases {
		if got := Link(c.p); got != c.link {
			t.Errorf("%+v: link %q, want %q", c.p, got, c.link)
		}
	}
	// Parse(Link(p)) is p, for links with a scenario or a comparison too.
	text := []byte(`{"name": "mine", "seed": 3}`)
	for _, p := range []Params{
		{Scenario: text, Seed: u(9), Epsilon: f(2), Hide: []string{"header", "attack"}},
		{Compare: text, Speed: f(0.25), Classroom: true, Experiment: "dpdgt-fig5"},
		{Preset: "dpdgt-ieee14", Epsilon: f(12.5), Hide: Parts},
	} {
		link := Link(p)
		got, errs := Parse(link)
		if len(errs) > 0 || !reflect.DeepEqual(got, p) {
			t.Errorf("%s: parsed back as %+v, %v; want %+v", link, got, errs, p)
		}
	}
}

func TestParseShare(t *testing.T) {
	text := []byte(`{"name": "mine"}`)
	enc := Encode(text)
	cases := []struct {
		search string
		check  func(Params) bool
		errs   []string
	}{
		{"?scenario=" + enc + "&seed=4", func(p Params) bool { return string(p.Scenario) == string(text) && *p.Seed == 4 }, nil},
		{"?compare=" + enc, func(p Params) bool { return string(p.Compare) == string(text) && p.Scenario == nil }, nil},
		{"?preset=a&scenario=" + enc + "&seed=1", func(p Params) bool { return p.Preset == "" && p.Scenario == nil && *p.Seed == 1 },
			[]string{"URL parameter scenario, preset: describe the run 2 times; give one of scenario, compare or preset"}},
		{"?scenario=%21", func(p Params) bool { return p.Scenario == nil }, []string{"URL parameter scenario: is not base64url: character 1"}},
		{"?epsilon=0.1", func(p Params) bool { return *p.Epsilon == 0.1 }, nil},
		{"?epsilon=0", func(p Params) bool { return p.Epsilon == nil }, []string{`URL parameter epsilon: must be a target ε from 1e-06 to 1e+300 (got "0")`}},
		{"?epsilon=inf", func(p Params) bool { return p.Epsilon == nil }, []string{"URL parameter epsilon: must be a target ε"}},
		{"?epsilon=2e300", func(p Params) bool { return p.Epsilon == nil }, []string{"URL parameter epsilon: must be a target ε"}},
		{"?hide=plot,editor,plot", func(p Params) bool { return reflect.DeepEqual(p.Hide, []string{"editor", "plot"}) }, nil},
		{"?hide=plot,%20theory%20,", func(p Params) bool { return reflect.DeepEqual(p.Hide, []string{"plot", "theory"}) }, nil},
		{"?hide=plot,plott,view", func(p Params) bool { return reflect.DeepEqual(p.Hide, []string{"plot"}) }, []string{
			`URL parameter hide: names an unknown part "plott"; the parts are header, title,`,
			`URL parameter hide: names an unknown part "view"`}},
		{"?hide=", func(p Params) bool { return p.Hide == nil }, []string{"URL parameter hide: names no part; give some of header"}},
		{"?hide=a,b,c,d,e", func(p Params) bool { return p.Hide == nil }, []string{"URL parameter hide", "URL parameter hide", "URL parameter hide"}},
		{"?classroom", func(p Params) bool { return p.Classroom }, nil},
		{"?classroom=1", func(p Params) bool { return p.Classroom }, nil},
		{"?classroom=yes", func(p Params) bool { return !p.Classroom }, []string{`URL parameter classroom: takes no value: write ?classroom (got "yes")`}},
	}
	for _, c := range cases {
		p, errs := Parse(c.search)
		if !c.check(p) {
			t.Errorf("%q: got %+v", c.search, p)
		}
		if len(errs) != len(c.errs) {
			t.Errorf("%q: errors %v, want %d", c.search, errs, len(c.errs))
			continue
		}
		for i, e := range errs {
			if !strings.HasPrefix(e.Error(), c.errs[i]) {
				t.Errorf("%q: error %d is %q, want it to start with %q", c.search, i, e, c.errs[i])
			}
		}
	}
}
