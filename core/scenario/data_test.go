package scenario

// The committed datasets, for the tests that build every preset
// (gtdp-logistic-mushrooms trains on mushrooms). Only tests and the CLI
// import them; the page fetches them (core/data/files' TestNotInPage).
import _ "dpsim/core/data/files"
