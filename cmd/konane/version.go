package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/konanezero/konane/net"
)

func init() {
	register(&command{
		name:  "version",
		usage: "version [--backend]",
		short: "print the version, the Go release and the matrix-multiply backend",
		long: `Version prints the module version of this binary, its Go release and
platform, and the matrix-multiply kernel the network runs on: by
default the package's own pure-Go build with the CPU's vector kernel
("pure Go, AVX-512", "pure Go, AVX2+FMA", or "pure Go, portable" on
other CPUs and with -tags purego), or OpenBLAS when the binary was
built with -tags openblas (Debian: apt-get install libopenblas-dev).
The scripts in scripts/ build with OpenBLAS whenever it is installed.

The three pure-Go kernels give bit-identical numbers: a training run is
reproduced bit for bit by the same code on any CPU with the pure-Go
build, and with OpenBLAS on the same kind of CPU; the backend is also
the first line of konane train.

Example: konane version
    konane devel, go1.26.8 linux/amd64, network backend OpenBLAS`,
		run: runVersion,
	})
}

// runVersion is "konane version".
func runVersion(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", stderr)
	backendOnly := fs.Bool("backend", false, "print only the network backend (for scripts)")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *backendOnly {
		fmt.Fprintln(stdout, net.Backend)
		return nil
	}
	goVersion := runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
	}
	fmt.Fprintf(stdout, "konane %s, %s %s/%s, network backend %s\n", buildVersion(), goVersion, runtime.GOOS, runtime.GOARCH, net.Backend)
	return nil
}
