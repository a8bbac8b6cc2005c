package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"dpsim/core/check"
	"dpsim/core/graph"
	"dpsim/core/jsonstrict"
	"dpsim/core/method"
	"dpsim/core/objective"
	"dpsim/core/param"
)

// FieldError is one broken rule, or one assumption that does not hold,
// with the dotted path of the field it is about ("algorithm.params.alpha";
// "" for the document as a whole), so that a form can show it beside
// that field.
type FieldError struct {
	Path string `json:"path"`
	// Msg is the rule and what was found, without the path.
	Msg string `json:"msg"`
}

// Report is everything wrong with a scenario's text at once.
type Report struct {
	// Errors are the broken rules; the scenario builds only when there
	// are none. Build stops at the first; CheckAll goes on through every
	// section that does not depend on a broken one.
	Errors []FieldError `json:"errors"`
	// Warnings are the assumptions that do not hold (a step size above a
	// theorem's bound): the run goes ahead. They are complete only when
	// Built is true.
	Warnings []FieldError `json:"warnings"`
	// Built reports that the scenario went through Build without error.
	Built bool `json:"built"`
	// Note says why Build was not tried although no error was found (the
	// gate refused it: a dataset the page has not fetched yet).
	Note string `json:"note,omitempty"`
}

// CheckAll validates a scenario's JSON text and returns every error it
// finds, each with its field's path, with the messages Build gives:
// first each top-level key on its own (a syntax error ends the check
// there: nothing after it can be read), then each section that does not
// depend on a broken one — the name, iterations, record and seeds, the
// algorithm's and the problem's parameters (every range at once), the
// graph, the weights, every noise channel, the initial states. When none
// is broken, gate (if not nil) may veto building; otherwise the scenario
// is built for place, and Build's own error, if any, or its warnings are
// added. The text's errors are thus never fewer than Build's: Report has
// no errors exactly when Build succeeds (or the gate vetoed it).
func CheckAll(data []byte, place Place, gate func(*Scenario) error) Report {
	r := Report{Errors: []FieldError{}, Warnings: []FieldError{}}
	add := func(err error) {
		if err == nil {
			return
		}
		var ce *check.Error
		if errors.As(err, &ce) {
			r.Errors = append(r.Errors, FieldError{Path: ce.Field, Msg: ce.Rule})
			return
		}
		r.Errors = append(r.Errors, FieldError{Msg: err.Error()})
	}
	if len(data) > MaxBytes {
		add(check.Errorf("", "the scenario is %d bytes; the limit is %d", len(data), MaxBytes))
		return r
	}
	if err := jsonstrict.Valid(data); err != nil {
		add(err)
		return r
	}
	text, bad, ok := keepGoodKeys(data, add)
	if !ok {
		return r
	}
	if len(bad) > 0 {
		// A key that did not decode is blanked out: the checks below
		// would call it missing, beside the error that says why.
		plain := add
		add = func(err error) {
			var ce *check.Error
			if errors.As(err, &ce) && slices.ContainsFunc(bad, func(k string) bool {
				return ce.Field == k || strings.HasPrefix(ce.Field, k+".") || strings.HasPrefix(ce.Field, k+"[")
			}) {
				return
			}
			plain(err)
		}
	}
	s, err := Parse(text)
	if err != nil {
		// Not reached: every key decoded on its own.
		add(err)
		return r
	}
	// A section is left nil only with its error reported.
	checkSections(s, place, add)
	if len(r.Errors) > 0 {
		return r
	}
	if gate != nil {
		if err := gate(s); err != nil {
			r.Note = err.Error()
			return r
		}
	}
	// Parse again: checkSections filled in defaults Build would refuse
	// to see twice (record.every).
	s, _ = Parse(text)
	b, err := BuildFor(s, place)
	if err != nil {
		add(err)
		return r
	}
	r.Built = true
	for _, w := range b.Warnings {
		r.Warnings = append(r.Warnings, FieldError{Path: w.Field, Msg: w.Message})
	}
	return r
}

// keepGoodKeys decodes every top-level key of the valid JSON object data
// on its own, reports the errors of those that fail, and returns data
// with them blanked out (spaces, newlines kept), so that the rest still
// parses and the positions in later errors stay those of the user's
// text, and the keys that failed. It reports false when data is not an
// object.
func keepGoodKeys(data []byte, add func(error)) (text []byte, bad []string, ok bool) {
	d := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	open := skipSpace(d, 0)
	if open >= len(d) || d[open] != '{' {
		var s Scenario
		add(jsonstrict.Decode(data, &s, ""))
		return nil, nil, false
	}
	type member struct {
		key        string
		start, end int
	}
	var ms []member
	i := open + 1
	for {
		i = skipSpace(d, i)
		if i >= len(d) || d[i] == '}' {
			break
		}
		start := i
		var key string
		_ = json.Unmarshal(d[i:skipString(d, i)], &key)
		i = skipSpace(d, skipString(d, i))
		i = skipSpace(d, i+1) // ':'
		i = skipValue(d, i)
		ms = append(ms, member{key, start, i})
		i = skipSpace(d, i)
		if i < len(d) && d[i] == ',' {
			i++
		}
	}
	closing := i
	// only returns d with the members keep says to keep, the rest blank.
	only := func(keep func(k int) bool) []byte {
		out := bytes.Clone(d)
		for j := open + 1; j < closing; j++ {
			if out[j] != '\n' && out[j] != '\r' {
				out[j] = ' '
			}
		}
		last := -1
		for k, m := range ms {
			if !keep(k) {
				continue
			}
			if last >= 0 {
				// The comma after the previous kept member, where the
				// user's comma was (there is one: a member follows).
				p := ms[last].end
				for p < closing && d[p] != ',' {
					p++
				}
				out[p] = ','
			}
			copy(out[m.start:m.end], d[m.start:m.end])
			last = k
		}
		return out
	}
	failed := make([]bool, len(ms))
	for k, m := range ms {
		var s Scenario
		if err := jsonstrict.Decode(only(func(j int) bool { return j == k }), &s, ""); err != nil {
			add(RealRange(err))
			failed[k] = true
			bad = append(bad, m.key)
		}
	}
	if len(bad) == 0 {
		return data, nil, true
	}
	return only(func(k int) bool { return !failed[k] }), bad, true
}

// checkSections runs the checks of Build section by section, reporting
// every broken rule, and returns the algorithm's and the problem's
// factories and the graph when their sections are sound (nil otherwise).
// It does not build the problem (its data may be large, or not fetched
// yet) and fills in record.every's default in s.
func checkSections(s *Scenario, place Place, add func(error)) (*method.Factory, *objective.Factory, *graph.Graph) {
	if !nameRE.MatchString(s.Name) {
		add(check.Errorf("name", "must be 1–64 letters, digits, '-', '_' or '.', starting with a letter or digit (got %q)", s.Name))
	}
	itersOK := check.IntRange("iterations", s.Iterations, 1, MaxIterations) == nil
	add(check.IntRange("iterations", s.Iterations, 1, MaxIterations))
	recordOK := true
	if s.Record.Every == 0 && slices.Contains(s.Record.given, "every") {
		add(check.Errorf("record.every", "must be a whole number from 1 to %d (got 0); leave it out to record every iteration", MaxIterations))
		recordOK = false
	} else if s.Record.Every == 0 {
		s.Record.Every = 1
	}
	if err := check.IntRange("record.every", s.Record.Every, 1, MaxIterations); recordOK && err != nil {
		add(err)
		recordOK = false
	}
	if recordOK {
		add(checkRecordStop(s))
	}
	if len(s.Record.Checkpoints) > MaxCheckpoints {
		add(check.Errorf("record.checkpoints", "at most %d checkpoints (got %d)", MaxCheckpoints, len(s.Record.Checkpoints)))
	} else if itersOK {
		for i, k := range s.Record.Checkpoints {
			if err := check.IntRange(check.Index("record.checkpoints", i), k, 0, s.Iterations); err != nil {
				add(err)
				break
			}
		}
	}
	add(checkSeeds(s))

	// The algorithm and its parameters, every range at once.
	f, ok := factories[s.Algorithm.Kind]
	switch {
	case s.Algorithm.Kind == "":
		add(check.Errorf("algorithm.kind", "is required: one of %v", AlgorithmNames()))
	case !ok:
		add(check.Errorf("algorithm.kind", "must be one of %v (got %q)", AlgorithmNames(), s.Algorithm.Kind))
	default:
		params := f.NewParams()
		if err := decodeParams(s.Algorithm.Params, params, "algorithm.params", s.Algorithm.paramsAt); err != nil {
			add(err)
		} else {
			for _, err := range param.ValidateAll("algorithm.params", params) {
				add(err)
			}
		}
	}

	// The problem's parameters, every range at once.
	pf, pparams, err := decodeProblem(&s.Problem)
	add(err)
	dim, dataBytes := 1, int64(0)
	if pf != nil {
		if errs := param.ValidateAll("problem.params", pparams); len(errs) > 0 {
			for _, err := range errs {
				add(err)
			}
			pf = nil
		} else if pf.Size != nil {
			dim, dataBytes = pf.Size(pparams, max(s.Graph.N, s.Graph.Rows*s.Graph.Cols))
			if err := checkDim(pparams, dim); err != nil {
				add(err)
				pf = nil
			}
		}
	}

	// The graph, then what needs its size: weights, noise, init.
	budget, where := int64(CLIBudget), "in the CLI"
	if place == Page {
		budget, where = PageBudget, "in the browser"
	}
	rooted := f != nil && f.RootedDigraphs
	g, err := buildGraph(&s.Graph, s.StreamSeeds(), rooted, func() error {
		if f == nil || pf == nil {
			return nil // Build checks the budget once both are known
		}
		return checkBudget(EstimateOf(s, f, dim, dataBytes, place == Page), budget, where)
	})
	if err != nil {
		add(err)
		g = nil
	}
	if g != nil && f != nil {
		ws := s.Weights.clone()
		if _, _, _, _, err := buildAllWeights(&ws, g, f); err != nil {
			add(err)
		}
	}
	if f != nil {
		checkNoise(s, f, g, add)
	}
	if f != nil && g != nil && pf != nil {
		add(checkInit(s, f, g.N, dim))
	}
	if f == nil {
		return nil, pf, g
	}
	return f, pf, g
}

// decodeParams decodes raw (if given) into params as Build does.
func decodeParams(raw []byte, params any, prefix string, at jsonstrict.Pos) error {
	if len(raw) == 0 {
		return nil
	}
	if err := jsonstrict.DecodeAt(raw, params, prefix, at); err != nil {
		return RealRange(err)
	}
	return nil
}

// checkSeeds is Build's check of seed and seeds.
func checkSeeds(s *Scenario) error {
	switch {
	case s.Seed != nil && s.Seeds != nil:
		return check.Errorf("seed", "give either seed (one number) or seeds (four), not both")
	case s.Seed != nil:
		if *s.Seed > 1<<53 {
			return check.Errorf("seed", "must be at most 2^53 = %d so that every language reads it exactly (got %d)", uint64(1)<<53, *s.Seed)
		}
	case s.Seeds == nil:
		return check.Errorf("seed", "is required: a whole number (or \"seeds\": {\"data\", \"graph\", \"noise\", \"algorithm\"})")
	default:
		for _, sd := range []struct {
			key string
			v   uint64
		}{{"data", s.Seeds.Data}, {"graph", s.Seeds.Graph}, {"noise", s.Seeds.Noise}, {"algorithm", s.Seeds.Algorithm}} {
			if sd.v > 1<<53 {
				return check.Errorf("seeds."+sd.key, "must be at most 2^53 = %d so that every language reads it exactly (got %d)", uint64(1)<<53, sd.v)
			}
		}
	}
	return nil
}

// checkNoise reports, channel by channel, what Build refuses about the
// noise section: a missing channel, a bad spec (when the graph's size is
// known), a distribution the algorithm does not use, an unknown channel.
func checkNoise(s *Scenario, f *method.Factory, g *graph.Graph, add func(error)) {
	for _, c := range f.Channels {
		field := check.Join("noise", c.Name)
		spec, ok := s.Noise[c.Name]
		if !ok || spec == nil {
			add(check.Errorf(field, "is required: %s (%s noise; use \"scale\": 0 for none)", c.Description, c.Dist))
			continue
		}
		if g != nil {
			if err := spec.Validate(field, g.N); err != nil {
				add(err)
				continue
			}
		}
		if spec.Dist != c.Dist {
			add(check.Errorf(check.Join(field, "dist"), "%s uses %s noise on this channel (got %q)", f.Title, c.Dist, spec.Dist))
		}
	}
	for _, name := range sortedKeys(s.Noise) {
		if !slices.ContainsFunc(f.Channels, func(c method.Channel) bool { return c.Name == name }) {
			add(check.Errorf(check.Join("noise", name), "unknown channel: %s has channels %v", f.Title, channelNames(f)))
		}
	}
}
