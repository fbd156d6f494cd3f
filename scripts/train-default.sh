#!/usr/bin/env bash
# Trains the shipped models exactly as they were made (same code, same
# seed, same settings), then copies them into models/ for go:embed.
#
#   scripts/train-default.sh 8    # the 8x8 model: 65 generations (80 minutes on 2 cores)
#   scripts/train-default.sh 6    # the 6x6 model: 70 generations (30 minutes on 2 cores)
#
# Runs are fixed by their generation count, not by wall time, so that they
# reproduce exactly on any machine (every random choice follows the seed).
#
# A run directory that already exists is resumed, so the script can be
# interrupted and started again.
#
# The network backend is pinned (BACKEND, default openblas: see
# scripts/build.sh) and printed: the same run comes out bit for bit only
# with the same backend on the same kind of CPU. BACKEND=gonum trains
# without OpenBLAS, several times slower and not bit-identical.
set -euo pipefail
cd "$(dirname "$0")/.."
size="${1:-8}"
# The 8x8 run was started before the default reuse ratio became 12 (see
# selfplay/config.go), so it keeps the 4 it was trained with.
case "$size" in
8) generations=65 extra="--reuse 4" ;;
6) generations=70 extra="" ;;
*) echo "usage: $0 8|6" >&2; exit 2 ;;
esac
run="runs/default-${size}x${size}"
konane="$(mktemp -d)/konane"
BACKEND="${BACKEND:-openblas}" scripts/build.sh "$konane"
"$konane" train --run "$run" --size "$size" --seed 1 --generations "$generations" $extra
cp "$run/models/$(cat "$run/models/latest")" "models/konane-${size}x${size}.safetensors"
"$konane" model info "models/konane-${size}x${size}.safetensors"
