package main

import (
	"fmt"
	"strings"

	"github.com/passgp-fast/passgp-fast/la"
)

func setThreads(n int) { la.SetThreads(n) }

// builder assembles one section from named parts and rewrites results.md
// each time a part is set, so partial results are always on disk.
type builder struct {
	env   *Env
	sec   *Section
	order []string
	parts map[string]string
	// svm runs the LIBSVM side-by-side part (once).
	svm     func()
	svmDone bool
	// old is the document's earlier section of the same key and mode (nil
	// if none), for parts that a run carries over.
	old *Section
}

// newBuilder starts a section. If the document already has this section
// from an earlier run in the same mode, its parts are not kept: a section
// reflects one run, except that with --no-svm the earlier LIBSVM part is
// carried over, labelled with the run that measured it.
func newBuilder(env *Env, key, title, intro string) *builder {
	b := &builder{
		env:   env,
		sec:   &Section{Key: key, Title: title, Mode: env.Cfg.Mode(), Command: env.Doc.Command, Machine: env.Doc.Machine},
		parts: map[string]string{},
	}
	old := env.Doc.Sections[key] // before set replaces it
	b.set("intro", intro)
	if old != nil && old.Mode == b.sec.Mode {
		b.old = old
	}
	if env.Cfg.NoSVM && b.old != nil {
		switch s := oldSVMPart(old); {
		case strings.HasPrefix(s, keptSVMNote):
			// Carried before: it keeps the note naming the run that measured it.
			b.parts["svm"] = s
		case s != "":
			b.parts["svm"] = fmt.Sprintf(keptSVMNote+" written %s UTC (`%s`); this run used --no-svm._\n\n%s",
				old.Updated.Format("2006-01-02 15:04"), old.Command, s)
		}
	}
	return b
}

// keptSVMNote starts the note on a LIBSVM part carried over by --no-svm.
const keptSVMNote = "_LIBSVM part kept from the earlier run"

// oldSVMPart returns the LIBSVM part of an earlier section: its stored
// part, or for sections written before parts were stored, the block of its
// markdown from the "### LIBSVM side by side" heading to the next heading
// or italic note.
func oldSVMPart(old *Section) string {
	if s, ok := old.Parts["svm"]; ok {
		return s
	}
	md := old.Markdown
	i := strings.Index(md, "### LIBSVM side by side")
	if i < 0 {
		return ""
	}
	rest := md[i:]
	end := len(rest)
	for _, stop := range []string{"\n### ", "\n_", "\nPeak resident memory"} {
		if j := strings.Index(rest[1:], stop); j >= 0 && j+1 < end {
			end = j + 1
		}
	}
	return strings.TrimSpace(rest[:end])
}

// declare fixes the order of parts (parts set but not declared go last).
func (b *builder) declare(parts ...string) { b.order = append([]string{"intro"}, parts...) }

// set replaces a part and writes the document.
func (b *builder) set(part, markdown string) {
	if _, ok := b.parts[part]; !ok && !contains(b.order, part) {
		b.order = append(b.order, part)
	}
	b.parts[part] = markdown
	b.flush()
}

// target records a target measurement (replacing one of the same name).
func (b *builder) target(t Target) {
	for i := range b.sec.Targets {
		if b.sec.Targets[i].Name == t.Name {
			b.sec.Targets[i] = t
			b.flush()
			return
		}
	}
	b.sec.Targets = append(b.sec.Targets, t)
	b.flush()
}

func (b *builder) flush() {
	var sb strings.Builder
	for _, p := range b.order {
		if s, ok := b.parts[p]; ok && s != "" {
			sb.WriteString(strings.TrimSpace(s))
			sb.WriteString("\n\n")
		}
	}
	b.sec.Markdown = sb.String()
	b.sec.Parts = b.parts
	if err := b.env.Doc.Put(b.sec); err != nil {
		b.env.logf("writing results: %v", err)
	}
}

// done marks the section complete.
func (b *builder) done() {
	b.sec.Complete = true
	b.flush()
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// oldRow returns, from the earlier section's part, the header of the
// table holding a row whose first cell is first, its separator and that
// row, as a markdown table; "" if there is none.
func (b *builder) oldRow(part, first string) string {
	if b.old == nil {
		return ""
	}
	lines := strings.Split(b.old.Parts[part], "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "| "+first+" |") {
			continue
		}
		for h := i - 1; h >= 1; h-- {
			if strings.HasPrefix(lines[h], "|---") && strings.HasPrefix(lines[h-1], "| ") {
				return lines[h-1] + "\n" + lines[h] + "\n" + l + "\n"
			}
		}
	}
	return ""
}
