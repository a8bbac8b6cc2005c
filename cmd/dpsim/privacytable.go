package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"

	"dpsim/core/experiment"
	"dpsim/core/num"
	"dpsim/core/privacy"
	"dpsim/core/runner"
	"dpsim/core/scenario"
)

const privacyTableHelp = `Usage: dpsim privacy-table

Runs every scenario preset to its end and prints, as the Markdown table of
docs/privacy-truth.md, the paper's bound (the algorithm's own accountant),
the tight bound (the same releases composed exactly, core/pld) and the
audit's lower bound (the first 12 iterations' messages, 100 runs on each
data set: a lower bound for the whole run too) beside each other, for the
most exposed agent, grouped by paper. "go test ./cmd/dpsim -run TestPrivacyTable -update" writes it
into docs/privacy-truth.md.

`

// TableRow is one preset's line of the privacy table.
type TableRow struct {
	// Group is the paper the preset belongs to (scenario.PresetMenu).
	Group             string
	Preset, Algorithm string
	Iterations        int
	// Paper and Tight are the ledger's bounds at the end of the run; Tight
	// is nil when the accountant states no releases.
	Paper privacy.Ledger
	Tight *privacy.TightLedger
	// Built is the scenario as run.
	Built *scenario.Built
	// Audit is the audit's cell (auditCell).
	Audit string
}

// The audit column: each preset's first auditIterations iterations
// audited with auditRuns runs on each data set (a lower bound on ε for
// those messages is one for the whole run's). The CNN and logistic
// regression on all of mushrooms take minutes per audit: their cell says
// so and how to run it (dpsim audit).
const (
	auditRuns       = 100
	auditIterations = 12
)

var auditSlow = map[string]bool{"gtdp-cnn-mnist": true, "gtdp-logistic-mushrooms": true}

// auditCell is the table's cell for the audit's lower bound on ε of
// preset name's most exposed agent, or why there is none.
func auditCell(name string) string {
	if auditSlow[name] {
		return "— (slow: dpsim audit)"
	}
	a, err := experiment.AuditPreset(context.Background(), name, auditRuns, auditIterations, 1)
	if err != nil {
		return "refused: " + strings.ReplaceAll(err.Error(), "|", "/")
	}
	return fmt.Sprintf("%.3g (%s; at most %.3g from these runs)", float64(a.Epsilon), a.Test, float64(a.Ceiling))
}

func cmdPrivacyTable(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("privacy-table", privacyTableHelp, stdout)
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("privacy-table", "takes no arguments (got %q)", fs.Arg(0))
	}
	rows, err := privacyRows()
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, privacyTable(rows))
	return err
}

// privacyRows runs every scenario preset with its tight bound, on every
// core, and returns the rows in the order of scenario.PresetMenu.
func privacyRows() ([]TableRow, error) {
	var ps []scenario.Preset
	var groups []string
	for _, g := range scenario.PresetMenu() {
		for _, p := range g.Presets {
			ps, groups = append(ps, p), append(groups, g.Label)
		}
	}
	rows := make([]TableRow, len(ps))
	errs := make([]error, len(ps))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				rows[i], errs[i] = privacyRow(ps[i].Name)
				rows[i].Audit = auditCell(ps[i].Name)
			}
		})
	}
	for i := range ps {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("preset %s: %w", ps[i].Name, err)
		}
		rows[i].Group = groups[i]
	}
	return rows, nil
}

// privacyRow runs preset name to its end and reads its ledger.
func privacyRow(name string) (TableRow, error) {
	s, err := scenario.PresetScenario(name)
	if err != nil {
		return TableRow{}, err
	}
	b, err := scenario.Build(s)
	if err != nil {
		return TableRow{}, err
	}
	r := runner.New(b)
	r.TrackTight()
	if err := r.Run(); err != nil {
		return TableRow{}, err
	}
	l := r.Ledger()
	return TableRow{Preset: name, Algorithm: b.Factory.Title, Iterations: r.Iter(), Paper: l, Tight: l.Tight, Built: b}, nil
}

// privacyTable writes the rows as Markdown, a table per paper.
func privacyTable(rows []TableRow) string {
	var b strings.Builder
	for i, r := range rows {
		if i == 0 || r.Group != rows[i-1].Group {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "#### %s\n\n", r.Group)
			fmt.Fprintf(&b, "| preset | algorithm | iterations | paper's bound | tight bound | paper ÷ tight | audit's lower bound (first %d iterations, %d + %d runs) |\n", auditIterations, auditRuns, auditRuns)
			b.WriteString("|---|---|---|---|---|---|---|\n")
		}
		paper, tight, ratio := paperCell(r.Paper), "—", "—"
		t := r.Tight
		switch e, ok := privacy.MostExposed(t); {
		case t == nil:
		case t.Reason != "":
			tight = "none: " + t.Reason
		case ok && e.Epsilon.NoGuarantee():
			tight = "∞: " + e.Reason
		case ok:
			tight = fmt.Sprintf("%s ± %s at δ = %g", e.Epsilon, errText(e.Error), e.Delta)
			ratio = ratioText(r.Paper.Max, e.Epsilon)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %d | %s | %s | %s | %s |\n", r.Preset, r.Algorithm, r.Iterations, paper, tight, ratio, r.Audit)
	}
	return b.String()
}

// paperCell is the paper's bound of the most exposed agent, with its δ.
func paperCell(l privacy.Ledger) string {
	m := l.Max
	switch {
	case m.NoGuarantee() && l.Notion == "none claimed":
		return "none claimed"
	case m.NoGuarantee():
		return "∞"
	}
	d := 0.0
	for _, e := range l.Agents {
		d = max(d, e.Delta)
	}
	return fmt.Sprintf("%s at δ = %g", m, d)
}

// errText writes an error estimate with two digits.
func errText(v float64) string { return fmt.Sprintf("%.2g", v) }

// ratioText is the paper's bound over the tight one, as a number or 10^x.
func ratioText(paper, tight privacy.Amount) string {
	if paper.NoGuarantee() || tight.NoGuarantee() || tight.Value() == 0 {
		return "—"
	}
	l := paper.Log10() - tight.Log10()
	if l < 6 {
		return fmt.Sprintf("%.4g", num.Pow(10, l))
	}
	return fmt.Sprintf("10^%.1f", l)
}
