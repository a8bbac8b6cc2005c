package runner

// RestoreCounters exposes restoreCounters to the external tests.
var RestoreCounters = (*Runner).restoreCounters
