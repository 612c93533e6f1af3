//go:build race

package la

// raceEnabled: the race detector makes sync.Pool drop items at random.
const raceEnabled = true
