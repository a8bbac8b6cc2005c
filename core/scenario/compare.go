package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"dpsim/core/check"
	"dpsim/core/jsonstrict"
	"dpsim/core/noise"
)

// CompareFormat is the format tag every comparison file carries, so that
// a reader (the CLI, the page's drag and drop) tells it from a scenario
// or an experiment.
const CompareFormat = "dpsim-compare/1"

// Comparison limits: two entries make a comparison; more than MaxEntries
// curves no longer read apart on one plot (and each entry is a full run).
const (
	MinEntries = 2
	MaxEntries = 8
	// MaxLabel bounds an entry's label, in characters.
	MaxLabel = 80
)

// Comparison runs several algorithms, or parameter sets of one, on the
// same problem instance, graph, weights and seeds: a base scenario and a
// list of algorithm sections. Entry i runs the base with its algorithm
// and noise replaced by the entry's (Entry). With Calibrate set, every
// entry is calibrated to the same target ε by its own accountant; an
// entry whose accountant cannot be calibrated runs uncalibrated, and
// Build says why (CompareBuilt.Notes), rather than failing the others.
// The format is documented in docs/compare.md.
type Comparison struct {
	// Format must be CompareFormat.
	Format string `json:"format"`
	// Title is an optional heading for the comparison.
	Title string `json:"title,omitempty"`
	// Base is the scenario every entry shares: its graph, weights,
	// problem, seeds, iterations and record section.
	Base json.RawMessage `json:"base"`
	// Calibrate, when set, is the equal-privacy target of every entry
	// (it replaces the base's own calibrate section).
	Calibrate *Calibrate `json:"calibrate,omitempty"`
	// Compare lists the entries, MinEntries to MaxEntries of them.
	Compare []Entry `json:"compare"`

	base *Scenario
}

// Entry is one algorithm section of a comparison: the algorithm's kind
// and parameters (decoded strictly by the algorithm, as in a scenario),
// optional pinned draws, optional noise channels and a label.
type Entry struct {
	// Label names the entry's curve (default: the algorithm's title,
	// numbered when two entries share it).
	Label string `json:"label,omitempty"`
	// Kind names the algorithm: one of AlgorithmNames().
	Kind   string          `json:"kind"`
	Params json.RawMessage `json:"params,omitempty"`
	// Draws pins the algorithm's internal draws (Algorithm.Draws).
	Draws map[string][]float64 `json:"draws,omitempty"`
	// Noise gives the entry's noise channels. Left out, every channel the
	// algorithm declares is taken from the base's channel of the same
	// name, which must then exist with the algorithm's distribution.
	Noise map[string]*noise.Spec `json:"noise,omitempty"`
}

// ParseComparison decodes and checks a comparison's JSON text: the
// format, the base scenario (its errors are prefixed "base."), the number
// of entries and their labels. It builds nothing: BuildComparison does,
// and refuses an algorithm incompatible with the base's problem there.
func ParseComparison(data []byte) (*Comparison, error) {
	if len(data) > MaxBytes {
		return nil, check.Errorf("", "the comparison is %d bytes; the limit is %d", len(data), MaxBytes)
	}
	var c Comparison
	if err := jsonstrict.Decode(data, &c, ""); err != nil {
		return nil, RealRange(err)
	}
	if c.Format != CompareFormat {
		return nil, check.Errorf("format", "must be %q (got %q)", CompareFormat, c.Format)
	}
	if len(c.Base) == 0 || string(c.Base) == "null" {
		return nil, check.Errorf("base", "is required: the scenario every entry shares")
	}
	base, err := Parse(c.Base)
	if err != nil {
		return nil, prefixErr("base", err)
	}
	c.base = base
	if err := c.check(); err != nil {
		return nil, err
	}
	return &c, nil
}

// NewComparison returns the comparison of entries on base, checked as
// ParseComparison checks a file. base is copied.
func NewComparison(base *Scenario, cal *Calibrate, entries []Entry) (*Comparison, error) {
	c := &Comparison{Format: CompareFormat, Calibrate: cal, Compare: entries, base: base.Clone()}
	c.Base = c.base.JSON()
	if err := c.check(); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Comparison) check() error {
	if n := len(c.Compare); n < MinEntries || n > MaxEntries {
		return check.Errorf("compare", "must list %d to %d algorithm sections (got %d)", MinEntries, MaxEntries, n)
	}
	for i, e := range c.Compare {
		field := check.Index("compare", i)
		if e.Kind == "" {
			return check.Errorf(field+".kind", "is required: one of %v", AlgorithmNames())
		}
		if _, ok := factories[e.Kind]; !ok {
			return check.Errorf(field+".kind", "unknown algorithm %q; one of %v", e.Kind, AlgorithmNames())
		}
		if n := len([]rune(e.Label)); n > MaxLabel {
			return check.Errorf(field+".label", "must be at most %d characters (got %d)", MaxLabel, n)
		}
		if strings.ContainsAny(e.Label, "\n\r") {
			return check.Errorf(field+".label", "must be one line (got %q)", e.Label)
		}
	}
	// The target that applies must be sound: a broken one would otherwise
	// read as "this entry cannot be calibrated" and every entry would run
	// uncalibrated.
	if c.Calibrate != nil {
		if err := checkCalibrate("calibrate", c.Calibrate); err != nil {
			return err
		}
	} else if c.base.Calibrate != nil {
		if err := checkCalibrate("base.calibrate", c.base.Calibrate); err != nil {
			return err
		}
	}
	// Every entry's name, hence its export's file name, must be a valid
	// scenario name of its own: two comparisons never share one.
	if !nameRE.MatchString(c.base.Name) {
		return check.Errorf("base.name", "must be 1–64 letters, digits, '-', '_' or '.', starting with a letter or digit (got %q)", c.base.Name)
	}
	for i := range c.Compare {
		if name := c.EntryName(i); len(name) > maxNameLen {
			return check.Errorf("base.name", "is %d characters, so entry %d's name %s (the base's name, the entry's number and its algorithm) is %d, over the %d a scenario name may have: shorten base.name to at most %d characters",
				len(c.base.Name), i+1, name, len(name), maxNameLen, maxNameLen-(len(name)-len(c.base.Name)))
		}
	}
	return nil
}

// maxNameLen is the longest scenario name (nameRE).
const maxNameLen = 64

// checkCalibrate checks a calibration target section before any entry is
// built: ε finite and > 0, the horizon 0 (the scenario's iterations) or
// from 1 to MaxIterations.
func checkCalibrate(field string, c *Calibrate) error {
	if !(c.Epsilon > 0) || math.IsInf(c.Epsilon, 0) {
		return check.Errorf(field+".epsilon", "must be a finite number > 0 (got %v)", c.Epsilon)
	}
	if c.Iterations < 0 || c.Iterations > MaxIterations {
		return check.Errorf(field+".iterations", "must be from 1 to %d, or 0 (left out) for the scenario's iterations (got %d)", MaxIterations, c.Iterations)
	}
	return nil
}

// EntryName returns entry i's scenario name, <base>-<i+1>-<kind>: the
// name of its export in dpsim compare's folder.
func (c *Comparison) EntryName(i int) string {
	return fmt.Sprintf("%s-%d-%s", c.base.Name, i+1, c.Compare[i].Kind)
}

// BaseScenario returns the comparison's base scenario (shared: do not
// change it; Clone it).
func (c *Comparison) BaseScenario() *Scenario { return c.base }

// WithBase returns a copy of c on another base scenario (a seed
// override, say) with another calibration target (nil: none of its own;
// the base's calibrate section, if any, then applies). base is copied.
func (c *Comparison) WithBase(base *Scenario, cal *Calibrate) *Comparison {
	cp := *c
	cp.base = base.Clone()
	cp.Base = cp.base.JSON()
	cp.Calibrate = cal
	return &cp
}

// JSON returns the comparison as indented JSON, the base written out in
// full: the text ParseComparison reads back to the same comparison.
func (c *Comparison) JSON() []byte {
	cp := *c
	cp.Base = c.base.JSON()
	b, err := json.MarshalIndent(&cp, "", "  ")
	if err != nil {
		panic("scenario: " + err.Error())
	}
	return b
}

// Labels returns every entry's label: its own, or the algorithm's title,
// numbered (#2, #3, …) when entries would share one.
func (c *Comparison) Labels() []string {
	out := make([]string, len(c.Compare))
	seen := map[string]int{}
	for i, e := range c.Compare {
		l := e.Label
		if l == "" {
			l = shortTitle(e.Kind)
		}
		seen[l]++
		if k := seen[l]; k > 1 {
			l = fmt.Sprintf("%s #%d", l, k)
		}
		out[i] = l
	}
	return out
}

// EntryScenario returns entry i's scenario: the base with the entry's
// algorithm and noise, the comparison's calibration target, the name
// <base>-<i+1>-<kind> and the entry's label as title. Initial states
// the base pins for variables the entry's algorithm does not have are
// left out (a base written for GT-DP pins s, which DPOP does not keep).
func (c *Comparison) EntryScenario(i int) (*Scenario, error) {
	e := c.Compare[i]
	field := check.Index("compare", i)
	f := factories[e.Kind]
	s := c.base.Clone()
	s.Algorithm = Algorithm{Kind: e.Kind, Params: e.Params, Draws: e.Draws}
	s.Name, s.Title = c.EntryName(i), c.Labels()[i]
	if c.Calibrate != nil {
		cal := *c.Calibrate
		s.Calibrate = &cal
	}
	if s.Init != nil {
		init := map[string][][]float64{}
		for k, v := range s.Init {
			_, shared := f.SharedVar(k)
			for _, st := range f.States {
				shared = shared || st == k
			}
			if shared {
				init[k] = v
			}
		}
		s.Init = init
	}
	if e.Noise != nil {
		s.Noise = make(map[string]*noise.Spec, len(e.Noise))
		for k, v := range e.Noise {
			if v != nil {
				sp := *v
				v = &sp
			}
			s.Noise[k] = v
		}
		return s, nil
	}
	s.Noise = map[string]*noise.Spec{}
	for _, ch := range f.Channels {
		sp, ok := c.base.Noise[ch.Name]
		if !ok || sp == nil {
			return nil, check.Errorf(field+".noise", "%s adds noise on channel %q, which the base scenario does not have: give %s.noise.%s", shortTitle(e.Kind), ch.Name, field, ch.Name)
		}
		if sp.Dist != "" && ch.Dist != "" && sp.Dist != ch.Dist {
			return nil, check.Errorf(field+".noise", "%s draws channel %q from the %s distribution, the base from %s: give %s.noise.%s", shortTitle(e.Kind), ch.Name, ch.Dist, sp.Dist, field, ch.Name)
		}
		cp := *sp
		s.Noise[ch.Name] = &cp
	}
	return s, nil
}

// CompareBuilt is a built comparison: one Built per entry, in order.
type CompareBuilt struct {
	Comparison *Comparison
	Entries    []*Built
	// Labels are the entries' labels (Comparison.Labels).
	Labels []string
	// Notes says, per entry, why it could not be calibrated to the
	// comparison's target ε ("" when it was, or when there is no
	// target); such an entry runs with its noise as written.
	Notes []string
}

// BuildComparison builds every entry of c for place. An entry that does
// not build (an algorithm incompatible with the problem, bad parameters)
// fails the whole comparison with a one-line error naming the entry, the
// algorithm and the reason. An entry that builds but cannot be
// calibrated (no accountant that predicts ε, no noise, a target out of
// reach) is built uncalibrated and its note says why.
func BuildComparison(c *Comparison, place Place) (*CompareBuilt, error) {
	return BuildComparisonCancel(c, place, nil)
}

// BuildComparisonCancel is BuildComparison that looks at cancel (when not
// nil) while it builds, the calibration searches among it (Ctrl-C during
// dpsim compare), and returns a one-line "interrupted" error naming the
// entry once it reports true.
func BuildComparisonCancel(c *Comparison, place Place, cancel func() bool) (*CompareBuilt, error) {
	out := &CompareBuilt{Comparison: c, Labels: c.Labels(), Notes: make([]string, len(c.Compare))}
	for i := range c.Compare {
		if cancel != nil && cancel() {
			return nil, fmt.Errorf("interrupted before building %s (%s)", check.Index("compare", i), out.Labels[i])
		}
		b, note, err := c.buildEntry(i, place, cancel)
		if cancel != nil && cancel() {
			return nil, fmt.Errorf("interrupted while building %s (%s)", check.Index("compare", i), out.Labels[i])
		}
		if err != nil {
			return nil, err
		}
		out.Entries = append(out.Entries, b)
		out.Notes[i] = note
	}
	return out, nil
}

func (c *Comparison) buildEntry(i int, place Place, cancel func() bool) (*Built, string, error) {
	field := check.Index("compare", i)
	title := shortTitle(c.Compare[i].Kind)
	s, err := c.EntryScenario(i)
	if err != nil {
		// A missing noise channel may hide a deeper misfit (an allocation
		// method on a minimisation problem): probe with stand-in channels
		// and report that first.
		if probe := c.probe(i); probe != nil {
			if _, perr := BuildFor(probe, place); perr != nil {
				return nil, "", entryErr(field, title, perr)
			}
		}
		return nil, "", err
	}
	b, err := BuildCancel(s.Clone(), place, nil, cancel)
	if err == nil || s.Calibrate == nil {
		if err != nil {
			return nil, "", entryErr(field, title, err)
		}
		return b, "", nil
	}
	// Does it build without the target? Then only the calibration failed.
	plain := s.Clone()
	plain.Calibrate = nil
	b, perr := BuildFor(plain, place)
	if perr != nil {
		return nil, "", entryErr(field, title, perr)
	}
	return b, calibrationNote(err), nil
}

// probe returns entry i's scenario with every channel the base lacks
// stood in by a copy of one of the base's channels in the algorithm's
// distribution, nil when the base has no channel at all.
func (c *Comparison) probe(i int) *Scenario {
	var any *noise.Spec
	for _, k := range sortedKeys(c.base.Noise) {
		if sp := c.base.Noise[k]; sp != nil {
			any = sp
			break
		}
	}
	if any == nil {
		return nil
	}
	cp := *c
	cp.Compare = append([]Entry(nil), c.Compare...)
	e := &cp.Compare[i]
	e.Noise = map[string]*noise.Spec{}
	for _, ch := range factories[e.Kind].Channels {
		sp := *any
		if ch.Dist != "" {
			sp.Dist = ch.Dist
		}
		e.Noise[ch.Name] = &sp
	}
	s, err := cp.EntryScenario(i)
	if err != nil {
		return nil
	}
	s.Calibrate = nil
	return s
}

// shortTitle is an algorithm's title without its citation: "DPOP" for
// "DPOP (Huang, Mitra, Vaidya 2015)".
func shortTitle(kind string) string {
	t := factories[kind].Title
	if i := strings.Index(t, " ("); i > 0 {
		t = t[:i]
	}
	return t
}

// calibrationNote says in one line why an entry could not be calibrated.
func calibrationNote(err error) string {
	msg := err.Error()
	var ce *check.Error
	if errors.As(err, &ce) {
		msg = ce.Rule
	}
	return msg
}

// entryErr names the entry and its algorithm before the build's error.
func entryErr(field, title string, err error) error {
	return check.Errorf(field, "%s cannot run on this base scenario: %v", title, err)
}

// prefixErr prefixes the field of a *check.Error (every parse error is
// one) with parent.
func prefixErr(parent string, err error) error {
	var ce *check.Error
	if errors.As(err, &ce) {
		return &check.Error{Field: check.Join(parent, ce.Field), Rule: ce.Rule}
	}
	return fmt.Errorf("%s: %w", parent, err)
}
