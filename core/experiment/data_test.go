package experiment

// The experiment presets include one on a committed dataset
// (gtdp-logistic-mushrooms-noise): the tests of this package read the
// datasets from the embedded files, as the CLI does; the page fetches
// them (core/data/files' TestNotInPage).
import _ "dpsim/core/data/files"
