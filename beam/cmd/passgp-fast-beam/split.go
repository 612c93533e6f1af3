package main

import (
	"flag"
	"strings"
)

// passgpFirst are the flags that both passgp-fast's commands and Beam
// define: they stay passgp-fast's (--labels, the IDX label file, not
// Dataflow's job labels). TestSplitPassgpFlags checks that no other
// passgp-fast flag is Beam's.
var passgpFirst = map[string]bool{"labels": true}

// splitArgs splits the command line args of a passgp-fast command into
// the flags that fs (Beam's, in the process's flag set) defines, with
// their values, and the rest, in order; a name in keep stays with the
// rest. A flag is -name, --name, -name=value or --name=value, and a
// non-boolean flag without "=" takes the next argument as its value, as
// package flag reads them; everything from a "--" on is the rest's.
func splitArgs(fs *flag.FlagSet, keep map[string]bool, args []string) (beam, rest []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return beam, append(rest, args[i:]...)
		}
		name, hasValue := flagName(a)
		f := fs.Lookup(name)
		if name == "" || f == nil || keep[name] {
			rest = append(rest, a)
			continue
		}
		beam = append(beam, a)
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); hasValue || (ok && b.IsBoolFlag()) {
			continue
		}
		if i+1 < len(args) {
			i++
			beam = append(beam, args[i])
		}
	}
	return beam, rest
}

// flagName returns the name of the flag argument a ("" when a is not
// one) and whether it holds its value (name=value).
func flagName(a string) (name string, hasValue bool) {
	if len(a) < 2 || a[0] != '-' {
		return "", false
	}
	name = strings.TrimPrefix(a[1:], "-")
	if name == "" || name[0] == '-' {
		return "", false
	}
	name, _, hasValue = strings.Cut(name, "=")
	return name, hasValue
}
