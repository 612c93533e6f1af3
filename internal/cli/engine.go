package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/data"
)

// Engine is a way of running train's computations other than the local
// one: given the binary data file train streams (dataPath, a .pgd file
// from convert) and --threads, it returns the extra options of the
// library call (passgpfast.FitBinary) that make training use it, and a
// function that releases what it started once training is over. ctx is
// the command's context; an Engine must not outlive it.
type Engine func(ctx context.Context, dataPath string, threads int) (opts []passgpfast.Option, close func() error, err error)

// LocalEngine is the built-in engine: training in this process, with no
// extra options.
const LocalEngine = "local"

// BeamEngine is the engine of the Beam module's program, which train runs
// in place of itself when no engine of that name is registered.
const BeamEngine = "beam"

// beamProgram and beamInstall are the program of BeamEngine and the
// command that installs it.
const (
	beamProgram = "passgp-fast-beam"
	beamInstall = "go install github.com/passgp-fast/passgp-fast/beam/cmd/passgp-fast-beam@latest"
)

// engineNames lists the engines train knows, local first.
func engineNames(engines map[string]Engine) string {
	names := []string{LocalEngine}
	for n := range engines {
		names = append(names, n)
	}
	slices.Sort(names[1:])
	if _, ok := engines[BeamEngine]; !ok {
		names = append(names, BeamEngine+" (runs "+beamProgram+")")
	}
	return strings.Join(names, ", ")
}

// engineArg returns the value of --engine in the flags args ("" when not
// given), read before they are parsed: the flags of an engine's own
// program (Beam's) are not train's.
func engineArg(args []string) string {
	name := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		switch {
		case a == "-engine" || a == "--engine":
			if i+1 < len(args) {
				i++
				name = args[i]
			}
		case strings.HasPrefix(a, "-engine=") || strings.HasPrefix(a, "--engine="):
			_, name, _ = strings.Cut(a, "=")
		}
	}
	return name
}

// selectEngine resolves --engine: a registered engine (nil for local), or
// ok false when the name is not registered.
func selectEngine(name string, engines map[string]Engine) (e Engine, ok bool) {
	if name == LocalEngine {
		return nil, true
	}
	e, ok = engines[name]
	return e, ok
}

// needBinary returns a usage error unless path is a binary data file,
// which every engine but the local one trains from.
func needBinary(engine string, d *dataFlags) error {
	f, err := d.dataFormat()
	if err != nil {
		return err
	}
	if f, err = data.FormatOf(d.path, f); err != nil {
		return err
	}
	if f != data.Binary {
		return errUsage("--engine %s trains from a binary data file, and %s is %s: run 'passgp-fast convert --data %s --out FILE.pgd' first", engine, d.path, f, d.path)
	}
	return nil
}

// startEngine starts engine e for the streamed data file and returns its
// options and the function that releases it (never nil).
func startEngine(ctx context.Context, name string, e Engine, path string, threads int) ([]passgpfast.Option, func() error, error) {
	opts, closeFn, err := e(ctx, path, threads)
	if err != nil {
		return nil, nil, fmt.Errorf("--engine %s: %w", name, err)
	}
	if closeFn == nil {
		closeFn = func() error { return nil }
	}
	return opts, closeFn, nil
}

// closeEngine releases an engine after training; its error is train's
// when training itself succeeded.
func closeEngine(name string, closeFn func() error, err *error, stderr io.Writer) {
	cerr := closeFn()
	if cerr == nil {
		return
	}
	cerr = fmt.Errorf("--engine %s: closing: %w", name, cerr)
	if *err == nil {
		*err = cerr
		return
	}
	fmt.Fprintf(stderr, "passgp-fast train: %s\n", oneLine(cerr.Error()))
}
