#!/usr/bin/env bash
# Measures a model against the yardsticks of the project's acceptance
# checks and writes the results under eval/<name>/ (not committed):
#
#   scripts/evaluate.sh MODEL SIZE [SIMS]
#
# - 200 games against a uniformly random player and 200 against the greedy
#   1-ply mobility player (colours alternate, openings spread over every
#   removal pair plus 2 seeded random plies);
# - on boards up to 6x6, the solver check: the fraction of critical
#   positions (the side to move can win, but not every move wins) where the
#   model's move keeps the win, beside the random player's rate;
# - on 8x8, 40 games against alpha-beta at depths 2, 4 and 6.
#
# It builds konane with OpenBLAS when installed (scripts/build.sh; BACKEND
# pins one) and prints the backend.
set -euo pipefail
cd "$(dirname "$0")/.."
model="$1"
size="$2"
sims="${3:-64}"
out="eval/$(basename "$model" .safetensors)-${size}x${size}"
mkdir -p "$out"
konane="$(mktemp -d)/konane"
scripts/build.sh "$konane" # OpenBLAS when installed; prints the backend
spec="model:${model},sims=${sims},name=model"
$konane arena --size "$size" --games 200 --parallel 2 --gauntlet --quiet --out "$out/baselines" "$spec" random greedy | tee "$out/baselines.txt"
if [ "$size" -le 6 ]; then
	$konane arena --size "$size" --solver-check --positions "${POSITIONS:-200}" --quiet "$spec" | tee "$out/solver-check.txt"
else
	$konane arena --size "$size" --games 40 --parallel 2 --gauntlet --quiet --out "$out/alphabeta" "$spec" \
		alphabeta:depth=2 alphabeta:depth=4 alphabeta:depth=6 | tee "$out/alphabeta.txt"
fi
