package passgp

import "sync"

// FirstError keeps the first error set on it, for a Rows whose reads can
// fail: the sticky error that Rows.Err returns, as in bufio.Scanner. It
// is safe for concurrent use (scoring reads rows on several goroutines).
// The zero value holds no error.
type FirstError struct {
	mu  sync.Mutex
	err error
}

// Set records err unless an error is held already or err is nil.
func (e *FirstError) Set(err error) {
	if err == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err == nil {
		e.err = err
	}
}

// Err returns the first error set, or nil.
func (e *FirstError) Err() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}
