package experiment

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"dpsim/core/check"
	"dpsim/core/scenario"
)

// The page's Workers setting: how many Web Workers run a sweep in the
// Experiments panel (public/experiments.js) or an audit in "Is this ε
// honest?" (public/audit.js) — one setting for both, through the
// solver's workers(). Each Worker is a WebAssembly instance with its own
// memory, running one run at a time; the count never changes a byte of
// the result.
const (
	// PageWorkersSetting is the setting's name on the page: what its
	// errors and a memory refusal name (Plan.WorkersSetting).
	PageWorkersSetting = "Workers"
	// MaxAutoWorkers bounds the automatic count: one Worker per core, at
	// most this many.
	MaxAutoWorkers = 8
	// MaxPageWorkers bounds a count chosen by hand, whatever the
	// machine says of its cores.
	MaxPageWorkers = 64
	// PageBudget is what a sweep's Workers, and the records the page
	// keeps, may hold in all: a CLI sweep's budget (scenario.CLIBudget),
	// counting every Worker's own copy of the data (Plan.WorkersApart).
	PageBudget = scenario.CLIBudget
)

// PageSettings declares the page's Workers setting as a plug-in's
// parameters are declared (package param: default, range, unit, one-line
// doc), for the fields the Experiments panel and the audit draw (the
// solver's settings()).
type PageSettings struct {
	Workers int `json:"workers" doc:"Web Workers running a sweep (Experiments) or an audit (Is this ε honest?) — one setting for both, kept in this browser —, one run each at a time, each with its own memory (the datasets, the problem, one run): fewer keep the machine responsive and the memory low; 0 or empty: auto, one per core, at most 8, as many as fit" range:"[0, 64]" unit:"Web Workers"`
}

// PageWorkersSaid says how many Workers run a sweep or an audit, and
// whether the count is auto's or the setting's: "3 Workers (your
// setting)", "1 Worker (auto)" — what the progress lines print.
func PageWorkersSaid(workers int, auto bool) string {
	s := fmt.Sprintf("%d Worker", workers)
	if workers != 1 {
		s += "s"
	}
	if auto {
		return s + " (auto)"
	}
	return s + " (your setting)"
}

// PageWorkersAuto says what auto means on a machine of cores cores (0:
// the browser does not say), for the hint beside an empty field.
func PageWorkersAuto(cores int) string {
	if cores < 1 {
		return fmt.Sprintf("auto: one per core (the browser does not say how many: %d assumed), at most %d", pageCores(cores), MaxAutoWorkers)
	}
	return fmt.Sprintf("auto: one per core (%d here), at most %d", cores, MaxAutoWorkers)
}

// pageCores is the cores the page says the machine has
// (navigator.hardwareConcurrency), 2 when it says nothing usable.
func pageCores(cores int) int {
	if cores < 1 {
		return 2
	}
	return cores
}

// CheckPageWorkers reads the Workers field's text: empty, 0 or "auto"
// is 0 (auto), otherwise a whole number from 1 to the machine's cores
// (at most MaxPageWorkers). Anything else is refused in one line naming
// the field, the rule and the value.
func CheckPageWorkers(text string, cores int) (int, error) {
	most := min(pageCores(cores), MaxPageWorkers)
	t := strings.TrimSpace(text)
	if t == "" || strings.EqualFold(t, "auto") {
		return 0, nil
	}
	v, err := strconv.ParseFloat(t, 64)
	if err == nil && v == 0 {
		return 0, nil
	}
	if err != nil || v != math.Trunc(v) || v < 1 || v > float64(most) {
		return 0, check.Errorf(PageWorkersSetting, "must be a whole number from 1 to %d (this machine's cores), or empty for auto: one per core, at most %d (got %s)",
			most, MaxAutoWorkers, strconv.Quote(text))
	}
	return int(v), nil
}

// PageWorkers chooses how many Web Workers run the plan's tasks in the
// page for the setting n (0: auto) on a machine of cores cores, with
// the Workers' memories apart (WorkersApart) and within PageBudget: auto
// takes one per core, at most MaxAutoWorkers, and fewer when they would
// not fit, which note then says; a count given is refused in the
// engine's one line naming the setting when its Workers would not fit.
// Never more Workers than tasks.
func (p *Plan) PageWorkers(n, cores int) (workers int, note string, err error) {
	p.WorkersApart, p.WorkersSetting = true, PageWorkersSetting
	tasks := p.Tasks()
	if n != 0 {
		if err := p.CheckMemory(tasks, n, PageBudget); err != nil {
			return 0, "", err
		}
		return max(1, min(n, tasks)), "", nil
	}
	want := max(1, min(pageCores(cores), MaxAutoWorkers, tasks))
	most := p.MostWorkers(tasks, want, PageBudget)
	if most == 0 {
		// Not even one fits: the engine's refusal says what to lower.
		return 0, "", p.CheckMemory(tasks, 1, PageBudget)
	}
	if most < want {
		note = fmt.Sprintf("auto: %d Workers, not %d: each holds about %s of its own, and %d would take %s past the %s it may use",
			most, want, scenario.Bytes(p.Estimate(tasks, most).Each), want, p.what(), scenario.Bytes(PageBudget))
	}
	return most, note, nil
}
