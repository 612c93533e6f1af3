package model

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/passgp-fast/passgp-fast/passgp"
)

// Checkpoint is a resumable snapshot of a (possibly multi-class) training
// run: the classifiers already finished, the index of the one in progress
// and its passgp.State. The payload of a checkpoint file is the gob
// encoding of this struct, framed and checksummed like a model file (kind
// KindCheckpoint).
type Checkpoint struct {
	// Options is the JSON object of the training options; resuming uses
	// them instead of the command line's.
	Options json.RawMessage
	Mode    Mode
	Classes []float64
	// N, D is the shape of the training data (checked on resume).
	N, D int
	// Done holds the finished classifiers, in training order.
	Done []Classifier
	// Held holds finished classifiers' held-out latents of the training
	// points, by class (none in checkpoints written before they were
	// stored), so that a resumed run calibrates as the uninterrupted one
	// (passgp.Options.Multi.Finished).
	Held []HeldOut
	// Current is the index of the classifier in progress; State its
	// snapshot (nil: start it afresh).
	Current int
	State   *passgp.State
}

// HeldOut is a finished classifier's held-out latents of the N training
// points: passgp.Result's HeldOut, HeldOutShare and HeldOutLost, for the
// classifier of Class.
type HeldOut struct {
	Class    float64
	Z, Share []float64
	Lost     int
}

// HeldOutOf returns the held-out latents stored for class, or nil.
func (c *Checkpoint) HeldOutOf(class float64) *HeldOut {
	for i := range c.Held {
		if c.Held[i].Class == class {
			return &c.Held[i]
		}
	}
	return nil
}

// EncodeCheckpoint returns the complete file content of c.
func EncodeCheckpoint(c *Checkpoint) ([]byte, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(c); err != nil {
		return nil, fmt.Errorf("model: encoding checkpoint: %w", err)
	}
	return frame(KindCheckpoint, buf.Bytes()), nil
}

// DecodeCheckpoint parses the content of a checkpoint file. It never
// panics (encoding/gob recovers from malformed input and reports an error).
func DecodeCheckpoint(b []byte) (*Checkpoint, error) {
	p, err := unframe(b, KindCheckpoint)
	if err != nil {
		return nil, err
	}
	return decodeCheckpointPayload(p)
}

func decodeCheckpointPayload(p []byte) (*Checkpoint, error) {
	c := new(Checkpoint)
	if err := gob.NewDecoder(bytes.NewReader(p)).Decode(c); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPayload, err)
	}
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPayload, err)
	}
	return c, nil
}

func (c *Checkpoint) validate() error {
	if c.N < 1 || c.D < 1 {
		return fmt.Errorf("checkpoint data shape %d×%d", c.N, c.D)
	}
	if c.Current < 0 || c.Current != len(c.Done) {
		return fmt.Errorf("checkpoint at classifier %d with %d finished", c.Current, len(c.Done))
	}
	for i := range c.Done {
		if err := c.Done[i].validate(); err != nil {
			return fmt.Errorf("finished classifier %d: %v", i, err)
		}
		if c.Done[i].D != c.D {
			return fmt.Errorf("finished classifier %d has dimension %d, data %d", i, c.Done[i].D, c.D)
		}
	}
	if err := c.validateHeld(); err != nil {
		return err
	}
	switch {
	case c.Mode != Binary && c.Mode != OneVsRest && c.Mode != PositiveVsRest:
		return fmt.Errorf("invalid mode %d", int(c.Mode))
	case c.Mode == Binary && len(c.Classes) != 2, c.Mode == OneVsRest && len(c.Classes) < 2, c.Mode == PositiveVsRest && len(c.Classes) != 1:
		return fmt.Errorf("mode %v with %d classes", c.Mode, len(c.Classes))
	case c.Current > c.classifiers():
		return fmt.Errorf("checkpoint at classifier %d of %d", c.Current, c.classifiers())
	}
	for i, cl := range c.Classes {
		if math.IsNaN(cl) || math.IsInf(cl, 0) || (i > 0 && !(cl > c.Classes[i-1])) {
			return fmt.Errorf("classes %v are not finite, distinct and ascending", c.Classes[:min(len(c.Classes), 8)])
		}
	}
	if s := c.State; s != nil {
		if err := s.Check(c.N, c.D); err != nil {
			return err
		}
	}
	if len(c.Options) > 0 && !json.Valid(c.Options) {
		return fmt.Errorf("options are not valid JSON")
	}
	return nil
}

// validateHeld checks the stored held-out latents: at most one entry per
// finished classifier's class, each with N finite latents, N shares in
// [0, 1] and a count of lost points within N.
func (c *Checkpoint) validateHeld() error {
	if len(c.Held) > len(c.Done) {
		return fmt.Errorf("%d held-out entries for %d finished classifiers", len(c.Held), len(c.Done))
	}
	for i, h := range c.Held {
		if !slices.ContainsFunc(c.Done, func(d Classifier) bool { return d.Class == h.Class }) ||
			slices.ContainsFunc(c.Held[:i], func(o HeldOut) bool { return o.Class == h.Class }) {
			return fmt.Errorf("held-out latents of class %v, which is not a finished classifier's or repeats", h.Class)
		}
		if len(h.Z) != c.N || len(h.Share) != c.N || h.Lost < 0 || h.Lost > c.N {
			return fmt.Errorf("class %v: %d/%d held-out latents and %d lost for %d points", h.Class, len(h.Z), len(h.Share), h.Lost, c.N)
		}
		for j := range h.Z {
			if z, s := h.Z[j], h.Share[j]; math.IsNaN(z) || math.IsInf(z, 0) || !(s >= 0 && s <= 1) {
				return fmt.Errorf("class %v: point %d has held-out latent %v, share %v", h.Class, j, z, s)
			}
		}
	}
	return nil
}

// classifiers is the number of binary classifiers of the run.
func (c *Checkpoint) classifiers() int {
	if c.Mode == OneVsRest {
		return len(c.Classes)
	}
	return 1
}

// CheckData reports whether the checkpoint belongs to a data set of that
// shape whose labels are y: every class it trains must occur in y, and for
// Binary and OneVsRest runs y must have no other class.
func (c *Checkpoint) CheckData(n, d int, y []float64) error {
	if c.N != n || c.D != d {
		return fmt.Errorf("checkpoint was made on %d×%d data, this is %d×%d", c.N, c.D, n, d)
	}
	present := make(map[float64]bool)
	for _, v := range y {
		present[v] = true
	}
	for _, cl := range c.Classes {
		if !present[cl] {
			return fmt.Errorf("checkpoint trains class %v, which the data do not have", cl)
		}
	}
	if c.Mode != PositiveVsRest && len(present) != len(c.Classes) {
		return fmt.Errorf("checkpoint trains %d classes, the data have %d", len(c.Classes), len(present))
	}
	return nil
}

// SaveCheckpoint writes c to path atomically.
func SaveCheckpoint(path string, c *Checkpoint) error {
	b, err := EncodeCheckpoint(c)
	if err != nil {
		return err
	}
	if err := writeAtomic(path, b); err != nil {
		return fmt.Errorf("model: writing checkpoint %s: %w", path, err)
	}
	return nil
}

// LoadCheckpoint reads the checkpoint file at path.
func LoadCheckpoint(path string) (*Checkpoint, error) {
	p, _, err := readFramed(path, KindCheckpoint)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	c, err := decodeCheckpointPayload(p)
	if err != nil {
		return nil, fmt.Errorf("model: %s: %w", path, err)
	}
	return c, nil
}
