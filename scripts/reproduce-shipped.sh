#!/usr/bin/env bash
# Trains the hand-chained models exactly as they were made (same code,
# same seed, same settings), and prints the last model's path and
# metadata. The 6x6 one is the 6x6 model shipped until aa26e63 (since
# then the multi-board model plays the squares: see models/README.md);
# the 8x8 one is the model shipped until 2026-12-02 (the 8x8 model
# shipped after it came from one run of the defaults:
# scripts/train-default.sh 8).
#
#   scripts/reproduce-shipped.sh 8    # the former 8x8 model: two runs, 65 + 266 generations
#   scripts/reproduce-shipped.sh 6    # the 6x6 model: five runs, 70 + 517 + 310 + 479 + 102 generations
#
# These runs were chained by hand, each with a constant learning rate
# (--schedule none); scripts/train-default.sh trains the same recipe in
# one run per size, with the stages in its schedule.
#
# The 8x8 model comes from two runs: the first (seed 1, 65 generations,
# 80 minutes on 2 cores) trained from random weights before the search
# had MCTS-Solver; the second (seed 2) starts from its last model
# (--init) and trains with the solver-aware search and exact value
# targets for 266 generations (182 minutes on 2 cores shared with other
# jobs, 17,024 games).
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
konane="$(mktemp -d)/konane"
BACKEND="${BACKEND:-openblas}" scripts/build.sh "$konane"
# last RUN prints the path of RUN's newest model.
last() { echo "$1/models/$(cat "$1/models/latest")"; }
case "$size" in
8)
	# The first run was started before the default reuse ratio became 12
	# (see selfplay/config.go), so it keeps the 4 it was trained with, and
	# before networks read the capture planes (--captures=false).
	"$konane" train --run runs/default-8x8 --size 8 --seed 1 --schedule none --generations 65 --reuse 4 --captures=false
	"$konane" train --run runs/default-8x8-solver --size 8 --seed 2 --schedule none --generations 266 \
		--init "$(last runs/default-8x8)"
	model="$(last runs/default-8x8-solver)"
	;;
6)
	# The first run (30 minutes) was trained before rescoring, random
	# openings and the capture planes were on by default; the second goes on from its last model
	# with both (83 minutes on 2 cores shared), the third from the
	# second's generation 517 at a fifth of the learning rate (27 minutes),
	# the fourth from the third's generation 310 with children rescoring
	# (67 minutes, half of them beside another run), the fifth from the
	# fourth's generation 479 at a quarter of its learning rate (17
	# minutes beside another run).
	"$konane" train --run runs/default-6x6 --size 6 --seed 1 --schedule none --generations 70 --rescore-stones 0 --random-plies 0 \
		--captures=false
	"$konane" train --run runs/default-6x6-b --size 6 --seed 7 --schedule none --generations 517 \
		--rescore-stones 26 --random-plies 10 --init "$(last runs/default-6x6)"
	"$konane" train --run runs/default-6x6-c --size 6 --seed 9 --schedule none --generations 310 \
		--rescore-stones 26 --random-plies 10 --lr 0.002 --init "$(last runs/default-6x6-b)"
	"$konane" train --run runs/default-6x6-d --size 6 --seed 31 --schedule none --generations 479 \
		--rescore-stones 26 --random-plies 10 --lr 0.002 --rescore-children 2 --init "$(last runs/default-6x6-c)"
	"$konane" train --run runs/default-6x6-e --size 6 --seed 51 --schedule none --generations 102 \
		--rescore-stones 26 --random-plies 10 --lr 0.0005 --rescore-children 2 --init "$(last runs/default-6x6-d)"
	model="$(last runs/default-6x6-e)"
	;;
*) echo "usage: $0 8|6" >&2; exit 2 ;;
esac
"$konane" model info "$model"
