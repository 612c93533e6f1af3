package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// flagSet is a flag.FlagSet that prints --help to stdout, one line per
// flag in the groups of group, and a one-line error otherwise.
type flagSet struct {
	*flag.FlagSet
	cmd, synopsis, about string
	groups               []flagGroup
}

// flagGroup is a heading of --help and the flags registered before it.
type flagGroup struct {
	title  string
	before map[string]bool
}

func newFlags(cmd, synopsis, about string) *flagSet {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &flagSet{FlagSet: fs, cmd: cmd, synopsis: synopsis, about: about}
}

// group starts the flag group title: the flags registered from now on
// until the next group are listed under it.
func (f *flagSet) group(title string) {
	before := map[string]bool{}
	f.VisitAll(func(fl *flag.Flag) { before[fl.Name] = true })
	f.groups = append(f.groups, flagGroup{title, before})
}

// parse parses args. It returns ok=false with the exit code to use when
// the command should stop (help printed or a usage error).
func (f *flagSet) parse(args []string, stdout, stderr io.Writer) (int, bool) {
	err := f.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		f.help(stdout)
		return exitOK, false
	}
	if err != nil {
		return usageErr(stderr, f.cmd, "%v (see 'passgp-fast %s --help')", err, f.cmd), false
	}
	if f.NArg() > 0 {
		return usageErr(stderr, f.cmd, "unexpected argument %q (see 'passgp-fast %s --help')", f.Arg(0), f.cmd), false
	}
	return 0, true
}

func (f *flagSet) help(w io.Writer) {
	fmt.Fprintf(w, "Usage: passgp-fast %s %s\n\n%s\n", f.cmd, f.synopsis, strings.TrimSpace(f.about))
	groups := f.groups
	if len(groups) == 0 {
		groups = []flagGroup{{"Flags", map[string]bool{}}}
	}
	names := make([][]string, len(groups))
	width := 0
	f.VisitAll(func(fl *flag.Flag) {
		g := 0
		for i := range groups {
			if !groups[i].before[fl.Name] {
				g = i
			}
		}
		names[g] = append(names[g], fl.Name)
		typ, _ := flag.UnquoteUsage(fl)
		width = max(width, len(fl.Name)+len(typ)+1)
	})
	for g, grp := range groups {
		fmt.Fprintf(w, "\n%s:\n", grp.title)
		slices.Sort(names[g])
		for _, n := range names[g] {
			fl := f.Lookup(n)
			typ, u := flag.UnquoteUsage(fl)
			if fl.DefValue != "" && fl.DefValue != "false" && fl.DefValue != "0" {
				u += fmt.Sprintf(" (default %s)", fl.DefValue)
			}
			fmt.Fprintf(w, "  --%-*s  %s\n", width, strings.TrimSpace(n+" "+typ), u)
		}
	}
}
