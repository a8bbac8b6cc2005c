//go:build !race

package runner_test

// raceEnabled reports a build with the race detector.
const raceEnabled = false
