// Command passgp-fast trains, applies and evaluates Gaussian process
// classifiers with PASS-GP / fPASS-GP (Henao & Winther, Neurocomputing
// 2012). Run `passgp-fast help` or see docs/cli.md; the implementation is
// package internal/cli.
package main

import (
	"context"
	"os"

	"github.com/passgp-fast/passgp-fast/internal/cli"
)

func main() {
	os.Exit(cli.Main(context.Background(), os.Args[1:], os.Stdout, os.Stderr, nil))
}
