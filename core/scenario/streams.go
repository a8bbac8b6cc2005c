package scenario

import (
	"slices"

	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/objective"
)

// MaxPinnedSamples bounds the pinned sample orders of all agents together.
const MaxPinnedSamples = 10_000_000

// setStreams checks the scenario's pinned algorithm draws
// (algorithm.draws) against the factory's declarations and its samples
// section against the problem, and hands both to env.
func setStreams(s *Scenario, f *method.Factory, env *method.Env) error {
	for _, name := range sortedKeys(s.Algorithm.Draws) {
		field := check.Join("algorithm.draws", name)
		i := slices.IndexFunc(f.Draws, func(d method.Draw) bool { return d.Name == name })
		if i < 0 {
			if len(f.Draws) == 0 {
				return check.Errorf(field, "%s draws nothing at random, so there is nothing to pin", f.Title)
			}
			return check.Errorf(field, "unknown draw: %s draws %v", f.Title, drawNames(f))
		}
		if err := f.Draws[i].Check(field, s.Algorithm.Draws[name]); err != nil {
			return err
		}
	}
	env.PinnedDraws = s.Algorithm.Draws
	sm := s.Samples
	if sm == nil {
		return nil
	}
	st, ok := env.Problem.(objective.Stochastic)
	if !ok {
		return check.Errorf("samples", "problem %q serves no samples (it is not stochastic): leave the section out", s.Problem.Kind)
	}
	switch sm.Mode {
	case "", method.Shuffle, method.Replace, method.InOrder:
	default:
		return check.Errorf("samples.mode", "must be one of %v (got %q)", method.SampleModes(), sm.Mode)
	}
	env.SampleMode = sm.Mode
	if sm.Order == nil {
		return nil
	}
	if sm.Mode != "" {
		return check.Errorf("samples.mode", "give either a mode or a pinned order, not both")
	}
	n := st.Agents()
	if len(sm.Order) != n {
		return check.Errorf("samples.order", "must list one order per agent: %d, got %d", n, len(sm.Order))
	}
	total := 0
	for i, o := range sm.Order {
		field := check.Index("samples.order", i)
		if len(o) == 0 {
			return check.Errorf(field, "must list at least one sample")
		}
		total += len(o)
		if total > MaxPinnedSamples {
			return check.Errorf("samples.order", "at most %d pinned samples in all", MaxPinnedSamples)
		}
		m := st.Samples(i)
		for k, v := range o {
			if v < 0 || v >= m {
				return check.Errorf(check.Index(field, k), "must be a sample of agent %d's shard, from 0 to %d (got %d)", i, m-1, v)
			}
		}
	}
	env.SampleOrder = sm.Order
	return nil
}

func drawNames(f *method.Factory) []string {
	var ns []string
	for _, d := range f.Draws {
		ns = append(ns, d.Name)
	}
	return ns
}
