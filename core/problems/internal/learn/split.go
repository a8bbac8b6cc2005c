package learn

import (
	"fmt"
	"slices"

	"dpsim/core/check"
	"dpsim/core/data"
	"dpsim/core/num"
	"dpsim/core/rng"
)

// Shard rules: how a training set's rows are dealt to agents.
const (
	// Contiguous gives agent i the i-th of n equal contiguous blocks of
	// the set in its stored order (DP-RECAL: "data split equally").
	Contiguous = "contiguous"
	// Shuffled permutes the rows with a seeded stream first, then deals
	// contiguous blocks: every agent sees a random sample of the set.
	Shuffled = "shuffled"
)

// ShardRules lists the shard rules.
func ShardRules() []string { return []string{Contiguous, Shuffled} }

// Split deals the rows of set to n agents by rule, seeded by seed (read
// only for Shuffled, from the stream "learn/shards"). Every agent gets
// ⌊rows/n⌋ or ⌈rows/n⌉ rows, the first rows mod n agents one more, so
// no row is dropped. It returns one view per agent.
func Split(set *data.Set, n int, rule string, seed uint64) ([]Rows, error) {
	if set.Rows < n {
		return nil, fmt.Errorf("%d rows cannot give each of %d agents a sample", set.Rows, n)
	}
	idx := make([]int, set.Rows)
	for k := range idx {
		idx[k] = k
	}
	switch rule {
	case Contiguous:
	case Shuffled:
		rng.New(seed, "learn/shards").Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
	default:
		return nil, fmt.Errorf("unknown shard rule %q", rule)
	}
	counts := make([]int, n)
	q, rem := set.Rows/n, set.Rows%n
	for i := range counts {
		counts[i] = q
		if i < rem {
			counts[i]++
		}
	}
	return deal(Rows{Set: set, Idx: idx}, counts), nil
}

// deal gives agent i the next counts[i] rows of all.
func deal(all Rows, counts []int) []Rows {
	out := make([]Rows, len(counts))
	lo := 0
	for i, c := range counts {
		out[i] = all.Sub(lo, lo+c)
		lo += c
	}
	return out
}

// Synthetic draws a seeded set of rows samples with cols features in
// [0, 1] and classes classes, for tests and for presets that must load
// nothing: features u ~ U[0, 1]^cols, a planted weight matrix W ~
// N(0, 1) per class, centred, and the label argmax_c (w_cᵀu + g_c) (a boundary
// through 0: the models here have no intercept) with
// Gumbel noise g_c of scale noise (noise 0: the labels are the planted
// model's, separable). split names the set ("train" or "test"): the two
// splits share the planted model and draw their rows apart.
func Synthetic(seed uint64, split string, rows, cols, classes int, noise float64) *data.Set {
	model := rng.New(seed, "learn/synthetic/model")
	w := make([]float64, classes*cols)
	for c := range classes {
		// Centre each class's weights (Σ_j w_cj = 0), so that every score
		// w_cᵀu has mean 0 over u ~ U[0, 1]^cols and the classes are
		// balanced although the boundary has no intercept.
		wc, mean := w[c*cols:(c+1)*cols], 0.0
		for j := range wc {
			wc[j] = rng.NormFloat64(model)
			mean += wc[j]
		}
		for j := range wc {
			wc[j] -= mean / float64(cols)
		}
	}
	r := rng.New(seed, "learn/synthetic/"+split)
	s := &data.Set{Name: "synthetic", Split: split, Rows: rows, Cols: cols,
		Features: make([]float32, rows*cols), Y: make([]uint8, rows)}
	for c := range classes {
		s.Classes = append(s.Classes, fmt.Sprint(c))
	}
	for i := range rows {
		u := s.Features[i*cols : (i+1)*cols]
		for j := range u {
			u[j] = float32(r.Float64())
		}
		best, arg := 0.0, 0
		for c := range classes {
			z := 0.0
			for j, v := range u {
				z += float64(w[c*cols+j] * float64(v))
			}
			if noise > 0 {
				z -= float64(noise * logNeg(r.Float64()))
			}
			if c == 0 || z > best {
				best, arg = z, c
			}
		}
		s.Y[i] = uint8(arg)
	}
	return s
}

// logNeg returns log(−log u), the Gumbel draw's negation, for u in [0, 1).
func logNeg(u float64) float64 {
	if u == 0 {
		u = 0x1p-53
	}
	return num.Log(-num.Log(u))
}

// Splits names the committed dataset splits a problem on dataset loads,
// as objective.Factory.Datasets lists them ("name/train", and
// "name/test" when test is set); none for synthetic data.
func Splits(dataset string, test bool) []string {
	if dataset == "" || dataset == "synthetic" || dataset == User {
		return nil
	}
	ds := []string{dataset + "/train"}
	if test {
		ds = append(ds, dataset+"/test")
	}
	return ds
}

// Indices returns each shard's row indices into its set, in the order the
// shard holds them, and their number: the deal a replay export writes for
// a committed dataset or the user's rows (problem.params.deal), so that a
// replay needs neither the shard rule nor its seed.
func Indices(shards []Rows) ([][]int, int64) {
	out, n := make([][]int, len(shards)), int64(0)
	for i, s := range shards {
		out[i] = make([]int, s.Len())
		for k := range out[i] {
			out[i][k] = s.Row(k)
		}
		n += int64(len(out[i]))
	}
	return out, n
}

// Dealt gives agent i the rows deal[i] of set, in that order: the deal a
// replay export wrote (Indices). field names the parameter in errors:
// one list per agent, none empty, every index a row of set, none beyond
// data.MaxInlineValues in all.
func Dealt(set *data.Set, n int, deal [][]int, field string) ([]Rows, error) {
	if len(deal) != n {
		return nil, check.Errorf(field, "lists %d agents' rows; the graph has %d agents", len(deal), n)
	}
	total := 0
	out := make([]Rows, n)
	for i, idx := range deal {
		if len(idx) == 0 {
			return nil, check.Errorf(fmt.Sprintf("%s[%d]", field, i), "is empty: every agent needs a sample")
		}
		if total += len(idx); total > data.MaxInlineValues {
			return nil, check.Errorf(field, "lists more than %d row indices", data.MaxInlineValues)
		}
		for k, r := range idx {
			if r < 0 || r >= set.Rows {
				return nil, check.Errorf(fmt.Sprintf("%s[%d][%d]", field, i, k), "must be a row of %q (%s: 0 … %d), got %d", set.Name, set.Split, set.Rows-1, r)
			}
		}
		out[i] = Rows{Set: set, Idx: slices.Clone(idx)}
	}
	return out, nil
}

// Shards deals set's rows to n agents: as the deal given when it is not
// nil (Dealt), else by rule and seed (Split), errors naming field and
// the set.
func Shards(set *data.Set, n int, rule string, seed uint64, given [][]int, field string) ([]Rows, error) {
	if given != nil {
		return Dealt(set, n, given, FieldDeal)
	}
	shards, err := Split(set, n, rule, seed)
	if err != nil {
		return nil, check.Errorf(field, "%q (%s): %v", set.Name, set.Split, err)
	}
	return shards, nil
}
