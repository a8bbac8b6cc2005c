package ui

import (
	"fmt"

	"dpsim/core/data"
	"dpsim/core/jsonstrict"
	"dpsim/core/scenario"
	"dpsim/ui/datafiles"
)

// HeavyCalibration is the horizon from which a calibrated scenario builds
// in a Worker: the calibration evaluates the ledger over every iteration
// for each try of its search (10⁷ iterations took 2.6 s natively).
const HeavyCalibration = 100_000

// HeavyData is the problem data, in bytes, from which a scenario builds
// in a Worker (a synthetic set of millions of values, say).
const HeavyData = 16 << 20

// heavy says why s runs in a Worker, "" when it runs on the page's
// thread: it trains on a committed dataset or on the user's files (its
// iterations are the expensive ones, and a user's file may be of any
// size up to data.MaxUserFileBytes: deciding by its parsed size would
// parse it here), or its build is long (heavyBuild).
func heavy(s *scenario.Scenario) string {
	if uses, err := datafiles.Needs(s, nil); err == nil && len(uses) > 0 {
		return fmt.Sprintf("it trains on %s", uses[0].Title)
	}
	if files := scenario.UserFiles(s); len(files) > 0 {
		return fmt.Sprintf("it trains on your file %s", files[0].Name)
	}
	return heavyBuild(s)
}

// heavyBuild says why building s would hold the page's thread for long
// ("" when it would not): its calibration spans HeavyCalibration
// iterations or more, or its problem holds HeavyData bytes of data or
// more (a synthetic set of millions of values; a dataset of as many
// values as float32s, such as MNIST's 30,000 images; the user's files of
// as many bytes, counted before any is parsed). The scenario builder
// checks such a scenario section by section without building it
// (App.checkBuild); a smaller scenario on a dataset it builds here, as
// its choices need (scenario.Choose).
func heavyBuild(s *scenario.Scenario) string {
	if s.Calibrate != nil && s.Iterations >= HeavyCalibration {
		return fmt.Sprintf("its calibration accounts for %d iterations", s.Iterations)
	}
	var userBytes int64
	for _, f := range scenario.UserFiles(s) {
		if b, _, err := data.UserBytes(f.Name, f.SHA256); err == nil {
			userBytes += int64(len(b))
		}
	}
	if userBytes >= HeavyData {
		return fmt.Sprintf("your files hold %s", scenario.Bytes(userBytes))
	}
	if uses, err := datafiles.Needs(s, nil); err == nil {
		var values int64
		for _, u := range uses {
			if d, err := data.Info(u.Dataset); err == nil {
				for _, sf := range d.Splits {
					if sf.File == u.File {
						values += int64(sf.Rows) * int64(d.Cols)
					}
				}
			}
		}
		if values*4 >= HeavyData {
			return fmt.Sprintf("its dataset holds %s as float32s", scenario.Bytes(values*4))
		}
	}
	for _, f := range scenario.Problems() {
		if f.Name != s.Problem.Kind || f.Size == nil {
			continue
		}
		params := f.NewParams()
		if len(s.Problem.Params) > 0 && jsonstrict.Decode(s.Problem.Params, params, "problem.params") != nil {
			return ""
		}
		if _, data := f.Size(params, max(s.Graph.N, 1)); data >= HeavyData {
			return fmt.Sprintf("its problem holds %s of data", scenario.Bytes(data))
		}
	}
	return ""
}
