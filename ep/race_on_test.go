//go:build race

package ep

// raceEnabled: the race detector makes sync.Pool drop items at random.
const raceEnabled = true
