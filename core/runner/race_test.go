//go:build race

package runner_test

// raceEnabled reports a build with the race detector, which runs every
// goroutine several times slower.
const raceEnabled = true
