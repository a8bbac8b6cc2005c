package method

import (
	"fmt"
	"math"
	"strings"

	"dpsim/core/glossary"
	"dpsim/core/objective"
)

// Words is what the page and `dpsim plugins` say about an algorithm, in
// its paper's notation. Every sentence the page prints about the
// algorithm comes from here or from its Theory, never from another
// plug-in's text: a new algorithm says its own (docs/words.md).
type Words struct {
	// Messages says what one link carries in one iteration: the
	// variables sent, their noise, the rounds, pushed or pulled. One or
	// two sentences, shown under the network.
	Messages string
	// Symbols are the glossary entries of every symbol the algorithm's
	// parameters, channels, messages and theory print.
	Symbols []glossary.Term
	// Assumptions are what its source's convergence result assumes,
	// each checked against a built run: the theory card lists which
	// hold.
	Assumptions []Assumption
	// Authors names the source briefly ("Xuan & Wang"), for menus.
	Authors string
	// BaselineOf names the algorithms (by Name) whose papers compare
	// against this one; empty for a paper's own algorithm. The preset
	// menu groups presets by paper: a baseline's preset goes to the
	// first of these whose paper poses its problem (objective.Words.Papers),
	// else to the first.
	BaselineOf []string
	// FreeMessages says why the accountant counts the first messages as
	// costing nothing, when it does ("" otherwise): the page says it
	// beside an ε still 0 after messages were sent.
	FreeMessages string
	// Attack says what the gradient-leakage attack panel shows against
	// this algorithm; "" when the attack does not apply, and the panel
	// is then not shown.
	Attack string
}

// Truth is whether an assumption holds for a run.
type Truth int

const (
	// Unknown: the run does not say (a constant the problem does not
	// state).
	Unknown Truth = iota
	// Holds: the run satisfies the assumption.
	Holds
	// Fails: the run breaks it; the source's claim then does not cover
	// the run.
	Fails
)

// String names the truth as the page and exports print it.
func (t Truth) String() string {
	switch t {
	case Holds:
		return "holds"
	case Fails:
		return "fails"
	}
	return "unknown"
}

// Verdict is an assumption checked on a run, with the numbers behind it.
type Verdict struct {
	Truth Truth
	// Detail gives the numbers: "Σβ_k diverges: β_k = 1/(1+k)^0.05".
	Detail string
}

// Assumption is one hypothesis of the source's convergence result.
type Assumption struct {
	// Name is the hypothesis in a few words, in the paper's notation
	// ("α·γ_0 < 2/(μ+L)").
	Name string
	// Source says where the paper states it ("Lemma 1").
	Source string
	// Check decides it for a run built on env with the decoded params
	// (the factory's own parameter struct).
	Check func(env *Env, params any) Verdict
}

// Checked is an assumption with its verdict for one run, as the page's
// theory card and exports show it.
type Checked struct {
	Name   string `json:"name"`
	Source string `json:"source"`
	// Verdict is "holds", "fails" or "unknown".
	Verdict string `json:"verdict"`
	Detail  string `json:"detail,omitempty"`
}

// CheckAssumptions decides every assumption of f's Words for a run built
// on env with params, in the order declared.
func (f *Factory) CheckAssumptions(env *Env, params any) []Checked {
	out := make([]Checked, 0, len(f.Words.Assumptions))
	for _, a := range f.Words.Assumptions {
		v := a.Check(env, params)
		out = append(out, Checked{Name: a.Name, Source: a.Source, Verdict: v.Truth.String(), Detail: v.Detail})
	}
	return out
}

// CheckWords reports a factory whose words are incomplete or contradict
// themselves: no Messages, no symbols, a glossary entry without a symbol
// or meaning (or given twice), an assumption without a name or check, or
// a baseline of itself. It is a programming error, caught by the
// registry's tests.
func (f *Factory) CheckWords() error {
	w := f.Words
	if strings.TrimSpace(w.Messages) == "" {
		return fmt.Errorf("%s: Words.Messages is empty: say what a link carries", f.Name)
	}
	if len(w.Symbols) == 0 {
		return fmt.Errorf("%s: Words.Symbols is empty: every algorithm prints symbols", f.Name)
	}
	if err := glossary.Check(f.Name, w.Symbols); err != nil {
		return err
	}
	if strings.TrimSpace(w.Authors) == "" {
		return fmt.Errorf("%s: Words.Authors is empty", f.Name)
	}
	for k, a := range w.Assumptions {
		if a.Name == "" || a.Source == "" || a.Check == nil {
			return fmt.Errorf("%s: assumption %d lacks a name, a source or a check", f.Name, k)
		}
	}
	for _, b := range w.BaselineOf {
		if b == f.Name {
			return fmt.Errorf("%s: Words.BaselineOf names itself", f.Name)
		}
	}
	return nil
}

// The assumptions several algorithms share. Each takes how to read its
// inputs from the factory's own parameters, so the check stays generic.

// SummableNoise is the hypothesis that the noise added over the run has
// a finite sum: every channel named (all when none is) decays summably
// for every agent, or is off. Its Name is name, in the paper's notation
// ("Σ_k β_k < ∞").
func SummableNoise(name, source string, channels ...string) Assumption {
	return Assumption{Name: name, Source: source, Check: func(env *Env, _ any) Verdict {
		names := channels
		if len(names) == 0 {
			for n := range env.Noise {
				names = append(names, n)
			}
		}
		off := true
		for _, n := range names {
			sp := env.Noise[n]
			if sp == nil || sp.IsOff() {
				continue
			}
			off = false
			for i := range env.Problem.Agents() {
				if d := sp.DecayOf(i); !d.Summable() && sp.Base(i) != 0 {
					return Fail(fmt.Sprintf("the %s noise decays as %s, whose sum diverges", n, d))
				}
			}
		}
		if off {
			return Hold("no noise")
		}
		return Hold("every noise scale decays summably")
	}}
}

// Attenuated is the hypothesis of the Gaussian baselines of DP-RECAL that
// the noise variance shrinks, σ_τ² = σ_1²·R^(−(τ−1)) with R > 1, so the
// noise is summable; attenuation reads R from the parameters. With R = 1
// the iterates keep a noise floor.
func Attenuated(source string, attenuation func(params any) float64) Assumption {
	return Assumption{Name: "R > 1: the noise variance shrinks by 1/R per publication", Source: source,
		Check: func(env *Env, params any) Verdict {
			if env.NoiseOff() {
				return Hold("no noise")
			}
			r := attenuation(params)
			if r > 1 {
				return Hold(fmt.Sprintf("R = %g", r))
			}
			return Fail(fmt.Sprintf("R = %g: the noise does not shrink, so the iterates keep a noise floor", r))
		}}
}

// BoundedGradients is the hypothesis that ‖∇f_i‖ ≤ C on every iterate,
// the sensitivity input of a privacy account. bound reads C from the
// parameters (0: the problem's) and whether gradients are clipped to it;
// project says the algorithm projects its iterates on the problem's
// domain, where a domain bound then holds.
func BoundedGradients(name, source string, project bool, bound func(params any) (c float64, clip bool)) Assumption {
	return Assumption{Name: name, Source: source, Check: func(env *Env, params any) Verdict {
		c, clip := bound(params)
		lp, ok := env.Problem.(objective.Lipschitz)
		var b objective.Bound
		if ok {
			b, ok = lp.GradientBound()
		}
		if clip {
			if c == 0 && ok {
				c = b.Value
			}
			return Hold(fmt.Sprintf("gradients are clipped to norm %.6g", c))
		}
		switch {
		case !ok && c > 0:
			return Unsure(fmt.Sprintf("the bound %.6g is the scenario's own; the problem declares none to check it against", c))
		case !ok:
			return Unsure("the problem declares no gradient bound")
		case c == 0:
			c = b.Value
		case c < b.Value:
			return Fail(fmt.Sprintf("the bound %.6g is below the problem's %.6g (%s)", c, b.Value, b.Source))
		}
		if !b.Everywhere && !project {
			return Fail(fmt.Sprintf("the problem's bound %.6g holds on its domain only, and the iterates are neither projected there nor clipped", b.Value))
		}
		return Hold(fmt.Sprintf("the bound %.6g against the problem's %.6g (%s)", c, b.Value, b.Source))
	}}
}

// StepBelow is the hypothesis step < bound, where limit computes both
// from the run (ok = false when the problem does not state what the
// bound needs, such as L).
func StepBelow(name, source string, limit func(env *Env, params any) (step, bound float64, ok bool)) Assumption {
	return Assumption{Name: name, Source: source, Check: func(env *Env, params any) Verdict {
		s, b, ok := limit(env, params)
		switch {
		case !ok:
			return Unsure("the problem does not state the constants the bound needs")
		case s < b:
			return Hold(fmt.Sprintf("%.4g < %.4g", s, b))
		}
		return Fail(fmt.Sprintf("%.4g is not below %.4g", s, b))
	}}
}

// Smoothness returns the problem's μ and L when it states them.
func Smoothness(env *Env) (mu, l float64, ok bool) {
	sm, ok := env.Problem.(objective.Smooth)
	if !ok {
		return 0, 0, false
	}
	mu, l = sm.Smoothness()
	return mu, l, l > 0 && !math.IsInf(l, 0)
}

// Assume is an assumption decided by check, for hypotheses of one
// algorithm.
func Assume(name, source string, check func(env *Env, params any) Verdict) Assumption {
	return Assumption{Name: name, Source: source, Check: check}
}

// NoiseOff reports whether the run adds no noise on any channel.
func (e *Env) NoiseOff() bool {
	for _, sp := range e.Noise {
		if sp != nil && !sp.IsOff() {
			return false
		}
	}
	return true
}

// Hold returns the verdict that an assumption holds, with its numbers.
func Hold(detail string) Verdict { return Verdict{Truth: Holds, Detail: detail} }

// Fail returns the verdict that an assumption fails, with its numbers.
func Fail(detail string) Verdict { return Verdict{Truth: Fails, Detail: detail} }

// Unsure returns the verdict that the run does not decide an assumption.
func Unsure(detail string) Verdict { return Verdict{Truth: Unknown, Detail: detail} }

// StronglyConvex is the hypothesis that every f_i is μ-strongly convex
// with μ > 0 and L-smooth, as the problem states (objective.Smooth).
func StronglyConvex(name, source string) Assumption {
	return Assumption{Name: name, Source: source, Check: func(env *Env, _ any) Verdict {
		mu, l, ok := Smoothness(env)
		switch {
		case !ok:
			return Unsure("the problem states no μ and L")
		case mu > 0:
			return Hold(fmt.Sprintf("μ = %.4g, L = %.4g", mu, l))
		}
		return Fail(fmt.Sprintf("the problem is not strongly convex (μ = 0, L = %.4g)", l))
	}}
}
