package scenario

import (
	"reflect"

	"dpsim/core/check"
	"dpsim/core/param"
)

// checkDim refuses a problem dimension outside [1, MaxDim], from the
// problem's declared Size alone, before anything is allocated. The error
// names the parameter that drives the dimension (dimField). A parameter
// outside its own range or options is reported first, naming it: Size
// reads the parameters unchecked, so the dimension (0 for a dataset that
// is not an image set) and the memory estimate that follow from them
// would blame the wrong thing.
func checkDim(params any, dim int) error {
	if err := param.Validate("problem.params", params); err != nil {
		return err
	}
	if dim >= 1 && dim <= MaxDim {
		return nil
	}
	field, direct := dimField(params, dim)
	if direct {
		return check.Errorf(field, "must be in [1, %d] (got %d)", MaxDim, dim)
	}
	return check.Errorf(field, "gives the problem dimension %d, beyond a scenario's limit [1, %d]", dim, MaxDim)
}

// dimField names the problem parameter that sets the dimension: the
// integer parameter "dim" if there is one, else the first integer
// parameter holding dim (direct: the parameter is the dimension itself),
// else the problem's params as a whole (the dimension then follows from
// data, such as a pinned row's length).
func dimField(params any, dim int) (field string, direct bool) {
	const pf = "problem.params"
	fs := param.Describe(params)
	for _, f := range fs {
		if v := reflect.ValueOf(f.Default); f.Kind == "integer" && f.Name == "dim" {
			return check.Join(pf, f.Name), v.CanInt() && v.Int() == int64(dim)
		}
	}
	for _, f := range fs {
		if v := reflect.ValueOf(f.Default); f.Kind == "integer" && v.CanInt() && v.Int() == int64(dim) {
			return check.Join(pf, f.Name), true
		}
	}
	return pf, false
}
