package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Table is a markdown table. Cells are plain strings; Row pads short rows.
type Table struct {
	Header []string
	Rows   [][]string
}

// Row appends one row.
func (t *Table) Row(cells ...string) { t.Rows = append(t.Rows, cells) }

// Markdown renders the table as GitHub-flavoured markdown. The first column
// is left-aligned, the others right-aligned (they are numbers).
func (t *Table) Markdown() string {
	var b strings.Builder
	n := len(t.Header)
	for _, r := range t.Rows {
		if len(r) > n {
			n = len(r)
		}
	}
	cell := func(r []string, i int) string {
		if i < len(r) {
			return strings.ReplaceAll(r[i], "|", "\\|")
		}
		return ""
	}
	b.WriteString("|")
	for i := 0; i < n; i++ {
		b.WriteString(" " + cell(t.Header, i) + " |")
	}
	b.WriteString("\n|")
	for i := 0; i < n; i++ {
		if i == 0 {
			b.WriteString("---|")
		} else {
			b.WriteString("---:|")
		}
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		b.WriteString("|")
		for i := 0; i < n; i++ {
			b.WriteString(" " + cell(r, i) + " |")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// f formats a measured number with the given decimals; NaN is shown as "n/a".
func f(v float64, dec int) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	if math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("%.*f", dec, v)
}

// pm formats mean ± standard deviation; with one repetition only the mean.
func pm(xs []float64, dec int) string {
	m, s := meanStd(xs)
	if len(xs) < 2 {
		return f(m, dec)
	}
	return f(m, dec) + " ± " + f(s, dec)
}

// meanStd returns the mean and the sample standard deviation (0 for one
// value, NaN for none). NaN entries are skipped.
func meanStd(xs []float64) (mean, std float64) {
	n := 0
	for _, x := range xs {
		if !math.IsNaN(x) {
			mean += x
			n++
		}
	}
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	mean /= float64(n)
	if n == 1 {
		return mean, 0
	}
	for _, x := range xs {
		if !math.IsNaN(x) {
			std += (x - mean) * (x - mean)
		}
	}
	return mean, math.Sqrt(std / float64(n-1))
}

// Target is one of the paper reproduction's quantitative targets and the
// measured value.
type Target struct {
	Name     string  `json:"name"`
	Goal     string  `json:"goal"`     // e.g. "<= 1.5 %"
	Limit    float64 `json:"limit"`    // the bound
	Measured float64 `json:"measured"` // NaN when not measured
	Unit     string  `json:"unit"`
	Note     string  `json:"note,omitempty"`
}

// Met reports whether the target (an upper bound) is met.
func (t Target) Met() bool { return !math.IsNaN(t.Measured) && t.Measured <= t.Limit }

// Verdict says met / missed by how much / not measured.
func (t Target) Verdict() string {
	switch {
	case math.IsNaN(t.Measured):
		return "not measured in this run"
	case t.Met():
		return "met"
	default:
		d := t.Measured - t.Limit
		rel := ""
		if t.Limit != 0 {
			rel = fmt.Sprintf(", %.0f%% over", 100*d/t.Limit)
		}
		return fmt.Sprintf("**missed** by %s %s%s", trimNum(d), t.Unit, rel)
	}
}

func trimNum(v float64) string {
	s := fmt.Sprintf("%.3g", v)
	return s
}

// Section is one experiment's part of results.md.
type Section struct {
	Key      string `json:"key"`   // usps, ijcnn, mnist
	Title    string `json:"title"` // heading
	Markdown string `json:"markdown"`
	// Parts holds the markdown of each named part, so that a later run
	// can carry a part it does not rerun (--no-svm keeps the LIBSVM part).
	Parts    map[string]string `json:"parts,omitempty"`
	Targets  []Target          `json:"targets,omitempty"`
	Mode     string            `json:"mode"` // "full" or "quick"
	Command  string            `json:"command"`
	Machine  string            `json:"machine"`
	Updated  time.Time         `json:"updated"`
	Complete bool              `json:"complete"` // false while the experiment is still running
}

// Doc is the persistent state behind results.md: one Section per
// experiment, stored as JSON beside the figures so that a run of one
// experiment (--only) rewrites its own section and keeps the others.
type Doc struct {
	Machine  string              `json:"machine"`
	Command  string              `json:"command"`
	Sections map[string]*Section `json:"sections"`

	mdPath, jsonPath string
}

var sectionOrder = []string{"usps", "ijcnn", "mnist"}

// OpenDoc loads outDir/results.json if present.
func OpenDoc(mdPath, outDir string) (*Doc, error) {
	d := &Doc{Sections: map[string]*Section{}, mdPath: mdPath, jsonPath: filepath.Join(outDir, "results.json")}
	b, err := os.ReadFile(d.jsonPath)
	if err == nil {
		if err := json.Unmarshal(b, d); err != nil {
			return nil, fmt.Errorf("%s: %v", d.jsonPath, err)
		}
		if d.Sections == nil {
			d.Sections = map[string]*Section{}
		}
	} else if !os.IsNotExist(err) {
		return nil, err
	}
	return d, nil
}

// Put replaces a section and rewrites results.md and results.json.
func (d *Doc) Put(s *Section) error {
	s.Updated = time.Now().UTC()
	d.Sections[s.Key] = s
	return d.Write()
}

// Write renders results.md and stores results.json, each atomically.
func (d *Doc) Write() error {
	js, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	if err := writeAtomic(d.jsonPath, js); err != nil {
		return err
	}
	return writeAtomic(d.mdPath, []byte(d.Render()))
}

// Render produces the whole results.md.
func (d *Doc) Render() string {
	var b strings.Builder
	b.WriteString("# Reproduction of Henao & Winther, Section 6 (measured here)\n\n")
	b.WriteString("Generated by `bench/repro`; every number under **measured here** was measured by the run that wrote its section, ")
	b.WriteString("on the machine stated below. Numbers under **paper** are quoted from the paper (Section 6) for comparison and were ")
	b.WriteString("not measured here. Do not edit by hand: rerun the command.\n\n")
	b.WriteString("Each section below names the command and machine that produced it; `--quick` sections ran on subsamples and are " +
		"not comparable with the paper. Full mode: `go run ./bench/repro --data ../shared/data --out docs/results` " +
		"(optionally `--only usps,ijcnn,mnist`, `--reps N`, `--fig-reps K`, `--deadline HH:MM`).\n\n")

	// The reproduction's targets across all sections.
	var tg Table
	tg.Header = []string{"target", "bound", "measured here", "verdict", "section / mode"}
	for _, k := range d.keys() {
		s := d.Sections[k]
		for _, t := range s.Targets {
			v := t.Verdict()
			if s.Mode == "quick" {
				v += " (quick mode on a subsample: not a measurement of the target)"
			}
			if t.Note != "" {
				v += " (" + t.Note + ")"
			}
			tg.Row(t.Name, t.Goal, f(t.Measured, 2)+" "+t.Unit, v, s.Key+" / "+s.Mode)
		}
	}
	// The targets are always listed, measured or not.
	for _, want := range expectedTargets {
		s := d.Sections[want.section]
		found := false
		if s != nil {
			for _, t := range s.Targets {
				found = found || t.Name == want.t.Name
			}
		}
		if !found {
			mode := "not run"
			if s != nil {
				mode = want.section + " / " + s.Mode
			}
			tg.Row(want.t.Name, want.t.Goal, "n/a", want.t.Verdict(), mode)
		}
	}
	if len(tg.Rows) > 0 {
		b.WriteString("## Targets\n\n")
		b.WriteString(tg.Markdown())
		b.WriteString("\n")
	}
	for _, k := range d.keys() {
		s := d.Sections[k]
		state := "complete"
		if !s.Complete {
			state = "**incomplete: the run was still in progress or stopped when this was written**"
		}
		fmt.Fprintf(&b, "## %s\n\n_Mode: %s; written %s; %s._\n\n", s.Title, s.Mode, s.Updated.Format("2006-01-02 15:04 MST"), state)
		if s.Command != "" {
			fmt.Fprintf(&b, "Command: `%s`.\n\n", s.Command)
		}
		if s.Machine != "" {
			fmt.Fprintf(&b, "Machine: %s.\n\n", s.Machine)
		}
		b.WriteString(strings.TrimSpace(s.Markdown))
		b.WriteString("\n\n")
	}
	b.WriteString(d.beyond())
	return b.String()
}

// beyond returns the "beyond the paper" section: the table and plot that
// bench/scaling writes to <out>/scaling (empty if it has not been run).
// They are measured by that command, not by this one.
func (d *Doc) beyond() string {
	dir := filepath.Join(filepath.Dir(d.jsonPath), "scaling")
	var b strings.Builder
	b.WriteString("## Beyond the paper: label noise and training time against N\n\n")
	fmt.Fprintf(&b, "_Written by `go run ./bench/scaling --out %s` (train with its defaults, LIBSVM with a CV grid and `-b 1` in the same run, "+
		"each run a separate process: wall time and peak RSS); not by bench/repro. The method behind "+
		"train's defaults is described in docs/method.md._\n\n", filepath.ToSlash(dir))
	if !writeFile(&b, filepath.Join(dir, "scaling.md")) {
		return ""
	}
	if rel, err := filepath.Rel(filepath.Dir(d.mdPath), filepath.Join(dir, "scaling.png")); err == nil {
		fmt.Fprintf(&b, "![training time against N](%s)\n\n", filepath.ToSlash(rel))
	}
	// Other data, measured one command at a time (each row names its
	// command): kept in <out>/scaling/other.md.
	writeFile(&b, filepath.Join(dir, "other.md"))
	b.WriteString(d.public())
	return b.String()
}

// public returns the public data sets' subsection: the table that
// bench/mlbench writes to <out>/mlbench/results.md (empty if it has not
// been run), with the notes kept beside it in notes.md (before the
// table) and after.md (after it).
func (d *Doc) public() string {
	dir := filepath.Join(filepath.Dir(d.jsonPath), "mlbench")
	var b, tab strings.Builder
	if !writeFile(&tab, filepath.Join(dir, "results.md")) {
		return ""
	}
	b.WriteString("### Public data sets\n\n")
	fmt.Fprintf(&b, "_Written by `go run ./bench/mlbench --out %s` (train with every default, LIBSVM with svm-scale, a CV grid and `-b 1`, "+
		"each run a separate process: wall time); not by bench/repro._\n\n", filepath.ToSlash(dir))
	writeFile(&b, filepath.Join(dir, "notes.md"))
	b.WriteString(tab.String())
	writeFile(&b, filepath.Join(dir, "after.md"))
	return b.String()
}

// writeFile appends the trimmed content of the file at path to b as a
// block followed by a blank line; it reports whether the file could be
// read (nothing is written if not).
func writeFile(b *strings.Builder, path string) bool {
	s, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	b.WriteString(strings.TrimSpace(string(s)))
	b.WriteString("\n\n")
	return true
}

func (d *Doc) keys() []string {
	var ks []string
	seen := map[string]bool{}
	for _, k := range sectionOrder {
		if d.Sections[k] != nil {
			ks = append(ks, k)
			seen[k] = true
		}
	}
	var rest []string
	for k := range d.Sections {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(ks, rest...)
}

func writeAtomic(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path))
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// md is a small markdown builder for section bodies.
type md struct{ strings.Builder }

func (m *md) p(format string, a ...any) {
	fmt.Fprintf(&m.Builder, format, a...)
	m.WriteString("\n\n")
}

func (m *md) h(level int, title string) {
	m.WriteString(strings.Repeat("#", level) + " " + title + "\n\n")
}

func (m *md) table(t *Table) {
	m.WriteString(t.Markdown())
	m.WriteString("\n")
}

func (m *md) img(alt, rel string) {
	fmt.Fprintf(&m.Builder, "![%s](%s)\n\n", alt, rel)
}

// expectedTargets are the reproduction's quantitative targets.
var expectedTargets = []struct {
	section string
	t       Target
}{
	{"mnist", Target{Name: "MNIST PASS-GP multi-class error", Goal: "<= 1.5 %", Limit: 1.5, Measured: math.NaN(), Unit: "%"}},
	{"mnist", Target{Name: "MNIST ten-digit PASS-GP training time", Goal: "< 30 min", Limit: 30, Measured: math.NaN(), Unit: "min"}},
	{"mnist", Target{Name: "MNIST multi-class error with invariances", Goal: "<= 1.0 %", Limit: 1.0, Measured: math.NaN(), Unit: "%"}},
}
