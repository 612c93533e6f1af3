#!/bin/sh
# Cross-checks the arm64 (NEON) build of package la and its Gram kernels:
# vet, then build the test binaries for arm64 with the pure-Go BLAS backend
# (CGO_ENABLED=0: no arm64 OpenBLAS is needed) and run them under
# qemu-user. Usage: .ci/arm64.sh  (from anywhere in the repository);
# ARM64_RUN=regexp selects other tests (default: the Gram kernels).
# Needs qemu-aarch64 (Debian/Ubuntu package qemu-user); without it the
# binaries are only built.
set -eu
cd "$(dirname "$0")/.."
export GOARCH=arm64 CGO_ENABLED=0
go vet ./la/...
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in la la/internal/asm; do
	go test -c -o "$tmp/$(echo "$p" | tr / _).test" "./$p"
	go test -c -tags noasm -o "$tmp/$(echo "$p" | tr / _)_noasm.test" "./$p"
done
if ! command -v qemu-aarch64 >/dev/null 2>&1; then
	echo "arm64.sh: qemu-aarch64 not found; built the arm64 test binaries only" >&2
	exit 0
fi
for t in "$tmp"/*.test; do
	echo "== $(basename "$t") (qemu-aarch64)"
	# -test.short: the full Cholesky/Gram sizes are slow under emulation.
	qemu-aarch64 "$t" -test.short -test.run "${ARM64_RUN:-Gram|SqDist|DotTo|Exp|Sqd|Pow|Tile}"
done
