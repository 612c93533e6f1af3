//go:build !race

package la

const raceEnabled = false
