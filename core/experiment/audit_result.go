package experiment

import (
	"context"
	"fmt"
	"math"

	"dpsim/core/audit"
	"dpsim/core/objective"
)

// AuditResult is what an audit found (Result.Audit): the lower bound on
// ε its runs prove at δ with its confidence, beside the ledger's claim,
// with the tests, their rates and their ROC curves.
type AuditResult struct {
	// Agent is the audited agent; Algorithm and Problem name the plug-ins.
	Agent     int    `json:"agent"`
	Algorithm string `json:"algorithm"`
	Problem   string `json:"problem"`
	// Adjacency is the neighbouring relation the neighbour was made
	// under, AdjacencyFrom where it came from (the algorithm's analysis or
	// audit.adjacency), Neighbour what changed.
	Adjacency     objective.Adjacency `json:"adjacency"`
	AdjacencyText string              `json:"adjacency_text"`
	AdjacencyFrom string              `json:"adjacency_from"`
	Neighbour     string              `json:"neighbour"`
	// Leak is the planted leak's noise factor (audit.leak), 0 for none.
	Leak float64 `json:"leak,omitempty"`
	// Delta is the δ of the bound, DeltaFrom where it came from.
	Delta      float64 `json:"delta"`
	DeltaFrom  string  `json:"delta_from"`
	Confidence float64 `json:"confidence"`
	// Claim is the ledger's ε of the agent (its log10 beside, finite even
	// when ε overflows), under the ledger's Notion.
	Claim      FI     `json:"claim"`
	ClaimLog10 FI     `json:"claim_log10"`
	Notion     string `json:"notion"`
	// Tight is the tight bound of the same releases (core/pld) when the
	// ledger states its releases; nil, with TightNote saying why, else.
	Tight *FI `json:"tight,omitempty"`
	// TightDelta is the δ of the tight bound (privacy.TightDelta for a
	// pure ε-DP ledger), TightError how far above the exact ε it may be.
	TightDelta float64 `json:"tight_delta,omitempty"`
	TightError float64 `json:"tight_error,omitempty"`
	TightNote  string  `json:"tight_note,omitempty"`
	// Epsilon is the audit's lower bound: the larger of its tests', each
	// taken at confidence (1 + Confidence)/2 so that the larger holds at
	// Confidence. Test names the statistic that gave it.
	Epsilon FI     `json:"epsilon"`
	Test    string `json:"test"`
	// Ceiling is the largest bound these runs could give (a test without
	// an error on the evaluation runs): an audit cannot show more, however
	// leaky the mechanism.
	Ceiling FI `json:"ceiling"`
	// Runs counts the runs the bound rests on, on D and on D′ (finished,
	// built; a run that diverged is counted, heard until it did), of
	// Planned on each.
	Runs    AuditRuns   `json:"runs"`
	Tests   []AuditTest `json:"tests"`
	Law     string      `json:"law"`
	Verdict string      `json:"verdict"`
	Summary string      `json:"summary"`
}

// AuditRuns counts an audit's runs.
type AuditRuns struct {
	D         int `json:"d"`
	Neighbour int `json:"neighbour"`
	Diverged  int `json:"diverged"`
	Planned   int `json:"planned_each"`
}

// AuditTest is one eavesdropper's test: its statistic, the bound its
// rates give, and its ROC curve.
type AuditTest struct {
	Statistic   string  `json:"statistic"`
	Description string  `json:"description"`
	Epsilon     FI      `json:"epsilon"`
	Estimate    FI      `json:"estimate"`
	Confidence  float64 `json:"confidence"`
	Threshold   FI      `json:"threshold"`
	// Above: the test says D′ when the statistic is above the threshold
	// (else at most it).
	Above     bool       `json:"above"`
	FPR       AuditRate  `json:"fpr"`
	FNR       AuditRate  `json:"fnr"`
	Selection int        `json:"selection_runs"`
	Method    string     `json:"method"`
	ROC       []ROCPoint `json:"roc"`
}

// AuditRate is a rate of a test with its one-sided confidence bounds.
type AuditRate struct {
	Count    int `json:"count"`
	Runs     int `json:"runs"`
	Estimate F   `json:"estimate"`
	Lower    F   `json:"lower"`
	Upper    F   `json:"upper"`
}

// ROCPoint is a point of a test's ROC curve (the threshold is −Inf at
// the first point).
type ROCPoint struct {
	Threshold FI `json:"threshold"`
	FPR       F  `json:"fpr"`
	TPR       F  `json:"tpr"`
}

// Audit verdicts.
const (
	AuditConsistent = "consistent"      // the lower bound is at most the claim
	AuditExceeds    = "exceeds claim"   // a finding: the runs prove more than the ledger allows
	AuditNoBound    = "not measured"    // too few runs finished
	AuditNoClaim    = "no finite claim" // the ledger gives no finite ε: nothing to contradict
)

// statistics of an audit's tests, in order.
var auditTests = []struct{ quantity, stat, text string }{
	{QuantityLR, audit.LikelihoodRatio, "log-likelihood ratio of the noise law between the agent's noise-free messages on D and on D′, summed over its releases"},
	{QuantityProjection, audit.Threshold, "the agent's messages projected on the change of its noise-free messages (no knowledge of the noise)"},
}

// assembleAudit computes the audit's result from the finished runs.
func (p *Plan) assembleAudit(g *groups) (*AuditResult, error) {
	ap := p.audit
	e := p.Exp
	res := &AuditResult{
		Agent: ap.agent, Algorithm: ap.algorithm, Problem: ap.problem,
		Adjacency: ap.adjacency, AdjacencyText: ap.adjacency.String(), AdjacencyFrom: ap.adjFrom,
		Neighbour: ap.neighbour.Change, Leak: ap.leak, Delta: ap.delta, DeltaFrom: ap.deltaFrom,
		Confidence: ap.confidence, Claim: FI(ap.claim.Value()), ClaimLog10: FI(ap.claim.Log10()),
		Notion: ap.notion, TightNote: ap.tightNote, Law: ap.lawText, Tests: []AuditTest{},
		Runs: AuditRuns{Planned: e.Runs},
	}
	if ap.tight != nil {
		v := FI(ap.tight.Epsilon.Value())
		res.Tight, res.TightDelta, res.TightError = &v, ap.tight.Delta, ap.tight.Error
	}
	if math.IsNaN(ap.claim.Log10()) {
		res.Claim, res.ClaimLog10 = FI(math.Inf(1)), FI(math.Inf(1))
	}
	var sets [2][2][]float64 // [statistic][series]
	for si := range 2 {
		for _, rec := range g.runs[si][0] {
			if rec == nil || rec.Status == StatusFailed {
				continue
			}
			lr, proj := float64(rec.Quantities[QuantityLR]), float64(rec.Quantities[QuantityProjection])
			if math.IsNaN(lr) || math.IsNaN(proj) {
				continue
			}
			if si == 0 {
				res.Runs.D++
			} else {
				res.Runs.Neighbour++
			}
			if rec.Status == StatusDiverged {
				res.Runs.Diverged++
			}
			sets[0][si] = append(sets[0][si], lr)
			sets[1][si] = append(sets[1][si], proj)
		}
	}
	level := 1 - float64((1-ap.confidence)/2)
	best := -1.0
	for ti, t := range auditTests {
		ex := audit.Experiment{Null: sets[ti][0], Alt: sets[ti][1]}
		if len(ex.Null) < 4 || len(ex.Alt) < 4 {
			continue
		}
		r, err := audit.LowerBound(ex, audit.Options{Delta: ap.delta, Confidence: level})
		if err != nil {
			return nil, fmt.Errorf("audit, %s: %w", t.stat, err)
		}
		roc, err := audit.ROC(ex, ap.rocPoints)
		if err != nil {
			return nil, fmt.Errorf("audit, %s: %w", t.stat, err)
		}
		at := AuditTest{Statistic: t.stat, Description: t.text, Epsilon: FI(r.Epsilon), Estimate: FI(r.Estimate),
			Confidence: level, Threshold: FI(r.Threshold), Above: r.Above, FPR: rate(r.FPR), FNR: rate(r.FNR),
			Selection: r.Selection, Method: r.Method}
		for _, pt := range roc {
			at.ROC = append(at.ROC, ROCPoint{Threshold: FI(pt.Threshold), FPR: F(pt.FPR), TPR: F(pt.TPR)})
		}
		res.Tests = append(res.Tests, at)
		if r.Epsilon > best {
			best, res.Test = r.Epsilon, t.stat
		}
	}
	res.Epsilon = FI(max(best, 0))
	if len(sets[0][0]) >= 4 && len(sets[0][1]) >= 4 {
		c, err := audit.Ceiling(len(sets[0][0]), len(sets[0][1]), audit.Options{Delta: ap.delta, Confidence: level})
		if err != nil {
			return nil, err
		}
		res.Ceiling = FI(c)
	}
	res.Verdict, res.Summary = ap.verdict(res, best)
	return res, nil
}

func rate(r audit.Rate) AuditRate {
	return AuditRate{Count: r.Count, Runs: r.Runs, Estimate: F(r.Estimate), Lower: F(r.Lower), Upper: F(r.Upper)}
}

// verdict compares the lower bound with the ledger's claim, in words.
func (ap *auditPlan) verdict(res *AuditResult, best float64) (string, string) {
	conf := fmt.Sprintf("%g %%", 100*ap.confidence)
	n := fmt.Sprintf("%d runs on D and %d on D′", res.Runs.D, res.Runs.Neighbour)
	switch {
	case best < 0:
		return AuditNoBound, "not measured: fewer than 4 runs finished on a data set (" + n + ")"
	case ap.claim.NoGuarantee():
		return AuditNoClaim, fmt.Sprintf("the runs prove ε ≥ %.3g at δ = %g (%s confidence, %s, %s test); the ledger claims no finite ε, so nothing is contradicted", best, ap.delta, conf, n, res.Test)
	case best > ap.claim.Value():
		return AuditExceeds, fmt.Sprintf("FINDING: the runs prove ε ≥ %.3g at δ = %g (%s confidence, %s, %s test), above the ledger's ε = %s: the implementation leaks more than its analysis allows (or the analysis is wrong); reproduce with fresh seeds and more runs", best, ap.delta, conf, n, res.Test, ap.claim)
	}
	return AuditConsistent, fmt.Sprintf("the runs prove ε ≥ %.3g at δ = %g (%s confidence, %s, %s test), at most the ledger's ε = %s: consistent", best, ap.delta, conf, n, res.Test, ap.claim)
}

// auditFigure is an audit's figure: the ROC curve of each test, with
// chance's diagonal, and the verdict on the ledger's claim.
func (p *Plan) auditFigure(r *Result) FigureData {
	a := r.Audit
	f := FigureData{
		Name: p.Exp.Name, Title: p.Exp.Title,
		XLabel: "false-positive rate (the test says D′ on a run on D)", YLabel: "true-positive rate (it says D′ on a run on D′)",
		Statistic: "roc", Band: "none", Partial: r.Partial, Finished: r.Finished, Tasks: r.Tasks,
		Verdicts: []FigureVerdict{},
	}
	if a == nil {
		f.Empty = "nothing to plot: no run finished"
		return f
	}
	f.Subtitle = fmt.Sprintf("agent %d of %s on %s; neighbour: %s", a.Agent, a.Algorithm, a.Problem, a.Neighbour)
	f.YNote = "ROC of each eavesdropper's test over all the runs; the bound on ε uses half of them to choose the threshold and the other half to count its rates"
	verdict := Inconclusive
	switch a.Verdict {
	case AuditConsistent:
		verdict = Holds
	case AuditExceeds:
		verdict = Fails
	}
	f.Verdicts = append(f.Verdicts, FigureVerdict{Claim: "the audit's lower bound on ε is at most the ledger's ε", Verdict: verdict, Summary: a.Summary})
	n := a.Runs.D + a.Runs.Neighbour
	for _, t := range a.Tests {
		fs := FigureSeries{Name: t.Statistic, Label: fmt.Sprintf("%s: ε ≥ %.3g", t.Statistic, float64(t.Epsilon))}
		for _, pt := range t.ROC {
			fs.X, fs.Y = append(fs.X, float64(pt.FPR)), append(fs.Y, float64(pt.TPR))
			fs.Lo, fs.Hi, fs.N = append(fs.Lo, float64(pt.TPR)), append(fs.Hi, float64(pt.TPR)), append(fs.N, n)
		}
		f.Series = append(f.Series, fs)
	}
	f.Series = append(f.Series, FigureSeries{Name: "chance", Label: "chance (a test that ignores the messages)",
		X: Fs{0, 1}, Y: Fs{0, 1}, Lo: Fs{0, 1}, Hi: Fs{0, 1}, N: []int{n, n}})
	return f
}

// AuditPreset audits the first iterations iterations of the scenario
// preset name, runs runs on each data set (seed 1), on workers workers. A
// lower bound on ε for those iterations' messages is one for the whole
// run's too (they are part of its transcript), so it stands beside the
// whole run's bounds (dpsim privacy-table, docs/privacy-truth.md).
func AuditPreset(ctx context.Context, name string, runs, iterations, workers int) (*AuditResult, error) {
	e, err := Parse([]byte(fmt.Sprintf(`{"format": "dpsim-experiment/1", "name": "audit-%s", "title": "audit",
	  "base": {"preset": %q}, "set": {"iterations": %d}, "audit": {}, "runs": %d, "seed": 1}`, name, name, iterations, runs)))
	if err != nil {
		return nil, err
	}
	p, err := NewPlan(e)
	if err != nil {
		return nil, err
	}
	recs, err := p.Execute(ctx, p.AllTasks(), workers, nil)
	if err != nil {
		return nil, err
	}
	res, err := Assemble(p, recs, nil)
	if err != nil {
		return nil, err
	}
	if res.Audit == nil {
		return nil, fmt.Errorf("audit of %s: no audit in the result", name)
	}
	return res.Audit, nil
}
