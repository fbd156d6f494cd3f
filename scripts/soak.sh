#!/usr/bin/env bash
# Soak test of `konane train`: trains in a fresh run directory for a given
# time and prints, after every generation, the resident memory of the
# process (VmRSS from /proc) and its live Go heap after the last garbage
# collection (from GODEBUG=gctrace=1). At the end it compares the RSS of
# the last generation with that of generation 20 and fails if it grew by
# more than 10%: a training run must be able to go on for days.
#
#   scripts/soak.sh                 # 30 minutes, 6x6 defaults
#   scripts/soak.sh 2h              # another duration
#   scripts/soak.sh 20m --games-per-gen 4 --sims 16   # extra flags go to konane train
#
# Linux only (it reads /proc). Run it under nice on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-30m}"
[ $# -gt 0 ] && shift
work="$(mktemp -d)"
pid=""
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
scripts/build.sh "$work/konane" # OpenBLAS when installed; prints the backend
echo "soak: konane train --run $work/run --size 6 --time $duration $*"
GODEBUG=gctrace=1 "$work/konane" train --run "$work/run" --size 6 --seed 1 --time "$duration" "$@" \
	>"$work/train.log" 2>"$work/gc.log" &
pid=$!
start=$SECONDS
printf '%6s %8s %8s %8s\n' gen elapsed rss_MB heap_MB
seen=0 last=0 rss20="" rss=""
while kill -0 "$pid" 2>/dev/null; do
	gen=$(grep -oE '^[0-9:]+ gen [0-9]+:' "$work/train.log" | tail -1 | grep -oE '[0-9]+:$' | tr -d : || true)
	if [ -n "$gen" ] && [ "$gen" -gt "$seen" ]; then
		seen=$gen
		r=$(awk '/^VmRSS/ {printf "%.1f", $2/1024}' "/proc/$pid/status" 2>/dev/null || true)
		# gctrace: "gc N @...: ... A->B->C MB, ..." where C is the heap marked live.
		heap=$(grep '^gc ' "$work/gc.log" | tail -1 | sed -E 's/.* [0-9]+->[0-9]+->([0-9]+) MB.*/\1/')
		printf '%6d %7ds %8s %8s\n' "$gen" $((SECONDS - start)) "${r:-?}" "${heap:-?}"
		if [ -n "$r" ]; then # not measured if the process was already gone
			rss=$r last=$gen
			[ "$gen" = 20 ] && rss20=$r
		fi
	fi
	sleep 0.2
done
wait "$pid" || { echo "soak: konane train failed:"; tail -5 "$work/train.log" "$work/gc.log"; exit 1; }
pid=""
if [ -z "$rss20" ] || [ "$last" -le 20 ]; then
	echo "soak: RSS measured up to generation $last only (generation 20 and later ones needed); run longer or with faster settings"
	exit 1
fi
growth=$(awk -v a="$rss20" -v b="$rss" 'BEGIN { printf "%+.1f", (b - a) / a * 100 }')
echo "soak: RSS at generation 20 $rss20 MB, at generation $last $rss MB ($growth%)"
awk -v g="$growth" 'BEGIN { exit !(g <= 10) }' || { echo "soak: memory grew by more than 10%"; exit 1; }
