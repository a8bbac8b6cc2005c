package runner

// RestoreCounters exposes restoreCounters to the external tests.
var RestoreCounters = (*Runner).restoreCounters

// Saved is the run export as ResumeExport reads it, for tests that tamper
// with exports.
type Saved = saved
