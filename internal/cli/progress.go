package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// progress prints training progress on stderr: a live line rewritten with
// '\r' when stderr is a terminal, one log line per batch otherwise.
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	tty     bool
	quiet   bool
	begin   time.Time
	classes int // number of binary classifiers to train
	index   int // the one being trained (0-based)
	// fracs[k] is the share of classifier k's batches done; nil until
	// the first update, which counts the classifiers before index (a
	// resumed run's) as done. Classes trained side by side each have one.
	fracs []float64
	width int // length of the last live line
	last  time.Time
}

// liveEvery limits the redraws of the live line.
const liveEvery = 100 * time.Millisecond

func newProgress(w io.Writer, quiet bool, classes int) *progress {
	return &progress{w: w, tty: isTerminal(w), quiet: quiet, begin: time.Now(), classes: max(classes, 1)}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// size sizes the display to the run's plan: its number of classifiers
// and those a resumed run has done.
func (p *progress) size(pl passgpfast.Plan) {
	p.mu.Lock()
	p.classes, p.index = max(pl.Classifiers, 1), pl.Done
	p.mu.Unlock()
}

// start logs the run's plan and sizes the display to it.
func (p *progress) start(pl passgpfast.Plan, path string) {
	p.size(pl)
	scaled := ""
	switch pl.Config.Scale {
	case "standard":
		scaled = ", standardised (--scale)"
	case "minmax":
		scaled = ", scaled to [-1, 1] (--scale)"
	}
	p.logf("training %d classifier(s) (%s, %s) on %s: %d points, %d features%s", pl.Classifiers, pl.Mode, pl.Config.Method, path, pl.N, pl.D, scaled)
}

// update reports a finished batch of classifier k.
func (p *progress) update(k int, pr passgp.Progress) {
	if p.quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.index = k
	final := pr.Pass == pr.Passes-1 && pr.Batch == pr.Batches-1
	if p.tty && !final && time.Since(p.last) < liveEvery {
		return
	}
	p.last = time.Now()
	elapsed := time.Since(p.begin)
	// Overall fraction done: finished classifiers plus this one's batches.
	frac := 1.0
	if total := pr.Passes * pr.Batches; total > 0 {
		frac = float64(pr.Pass*pr.Batches+pr.Batch+1) / float64(total)
	}
	if p.fracs == nil {
		p.fracs = make([]float64, p.classes)
		for k := 0; k < p.index && k < p.classes; k++ {
			p.fracs[k] = 1
		}
	}
	if p.index < p.classes {
		p.fracs[p.index] = frac
	}
	var overall float64
	for _, f := range p.fracs {
		overall += f
	}
	overall /= float64(p.classes)
	eta := "?"
	if overall > 0 {
		eta = fmtDur(time.Duration(float64(elapsed) * (1 - overall) / overall))
	}
	cls := ""
	if pr.Class != "" {
		cls = fmt.Sprintf("class %s (%d/%d) ", pr.Class, p.index+1, p.classes)
	}
	line := fmt.Sprintf("%spass %d/%d batch %d/%d |A|=%d (+%d -%d) logZ=%.4g theta=%s elapsed %s ETA %s",
		cls, pr.Pass+1, pr.Passes, pr.Batch+1, pr.Batches, pr.Active, pr.Included, pr.Deleted, pr.LogZ, fmtTheta(pr.Theta), fmtDur(elapsed), eta)
	if p.tty {
		pad := ""
		if n := p.width - len(line); n > 0 {
			pad = strings.Repeat(" ", n)
		}
		fmt.Fprintf(p.w, "\r%s%s", line, pad)
		p.width = len(line)
		return
	}
	fmt.Fprintf(p.w, "%s %s\n", time.Now().Format("15:04:05"), line)
}

// logf prints a message line, ending a live line first.
func (p *progress) logf(format string, args ...any) {
	if !p.quiet {
		p.printf(format, args...)
	}
}

// warnf prints a warning line, also when quiet: --quiet silences
// progress, not trouble.
func (p *progress) warnf(format string, args ...any) {
	p.printf("warning: "+format, args...)
}

// printf prints a line, ending a live line first.
func (p *progress) printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.endLive()
	fmt.Fprintf(p.w, format+"\n", args...)
}

// done ends a live line.
func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.quiet {
		p.endLive()
	}
}

// endLive ends the live line on a terminal, if one is shown; p.mu is held.
func (p *progress) endLive() {
	if p.tty && p.width > 0 {
		fmt.Fprintln(p.w)
		p.width = 0
	}
}

func fmtTheta(t []float64) string {
	s := make([]string, len(t))
	for i, v := range t {
		s[i] = fmt.Sprintf("%.3g", v)
	}
	return "[" + strings.Join(s, " ") + "]"
}

func fmtDur(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}
