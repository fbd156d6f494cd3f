#!/usr/bin/env bash
# Builds the konane binary with the fastest network backend available and
# says which one it used, and konane-train beside it (konane with the
# trainer, -tags trainer, which "konane train" runs):
#
#   scripts/build.sh [OUT]          # default OUT: ./konane
#   BACKEND=openblas scripts/build.sh   # pin a backend: openblas or gonum
#
# BACKEND=auto (the default) picks OpenBLAS when it can be linked (Debian:
# apt-get install gcc libopenblas-dev), else the pure-Go build (BACKEND=
# gonum: no cgo; its matrix products run on the AVX-512 or AVX2+FMA
# kernel the CPU has, chosen at run time, or a portable one, all three
# bit-identical). The other scripts build through this one. A training
# run is reproduced bit for bit only with the same backend (and, with
# OpenBLAS, on the same kind of CPU), so the scripts that must reproduce
# a run pin BACKEND.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-./konane}"
backend="${BACKEND:-auto}"
have_openblas() {
	command -v gcc >/dev/null 2>&1 &&
		{ [ -e /usr/include/cblas.h ] || compgen -G '/usr/include/*/cblas.h' >/dev/null; } &&
		ldconfig -p 2>/dev/null | grep 'libopenblas\.so' >/dev/null
}
case "$backend" in
auto) if have_openblas; then backend=openblas; else backend=gonum; fi ;;
openblas)
	if ! have_openblas; then
		echo "build: BACKEND=openblas, but OpenBLAS is not installed (apt-get install gcc libopenblas-dev)" >&2
		exit 1
	fi
	;;
gonum) ;;
*)
	echo "build: BACKEND=$backend: want auto, openblas or gonum" >&2
	exit 2
	;;
esac
tags=""
[ "$backend" = openblas ] && tags="openblas"
go build -tags "$tags" -o "$out" ./cmd/konane
go build -tags "trainer${tags:+,$tags}" -o "$(dirname "$out")/konane-train" ./cmd/konane
echo "build: $("$out" version), and konane-train beside it" >&2
