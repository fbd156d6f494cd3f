#!/usr/bin/env bash
# Trains a model from random weights with the defaults of `konane train`,
# one run per board size, and prints its last model's path and metadata
# (no single-board model ships since the multi-board one plays the
# squares: see models/README.md):
#
#   scripts/train-default.sh 8    # runs/default-8x8, 719 generations (the 8x8 model shipped until aa26e63)
#   scripts/train-default.sh 6    # runs/default-6x6, 1478 generations
#   scripts/train-default.sh 7    # runs/default-7x7, 900 generations
#
# The defaults are the recipe of the shipped models, whose runs were
# chained by hand (scripts/reproduce-shipped.sh): the learning rate in
# stages and child rescoring from a generation on, now the run's schedule
# (see "konane help train"). 1478 generations are the length of the 6x6
# chain; 900 on 7x7 go past the schedule's last stage (777) as far as the
# 6x6 chain went past its own. The 8x8 model shipped until aa26e63 is
# generation 719 of this run (seed 1; 2.66 CPU-hours, made with the OpenBLAS build of
# commit 793b8dd), the latest when it was judged clearly stronger than
# the hand-chained model before it.
#
# Runs are fixed by their generation count, not by wall time, so that they
# reproduce exactly on any machine (every random choice follows the seed).
# A run directory that already exists is resumed, so the script can be
# interrupted and started again. Further arguments go to konane train
# (say --workers 16); a flag that would change the run is refused.
#
# The network backend is pinned (BACKEND, default openblas: see
# scripts/build.sh) and printed: the same run comes out bit for bit only
# with the same backend on the same kind of CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
size="${1:-8}"
shift || true
case "$size" in
6) generations=1478 ;;
7) generations=900 ;;
8) generations=719 ;;
*) echo "usage: $0 6|7|8 [konane train flags]" >&2; exit 2 ;;
esac
konane="$(mktemp -d)/konane"
BACKEND="${BACKEND:-openblas}" scripts/build.sh "$konane"
run="runs/default-${size}x${size}"
"$konane" train --run "$run" --size "$size" --seed 1 --generations "$generations" "$@"
model="$run/models/$(cat "$run/models/latest")"
"$konane" model info "$model"
