#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# run-bench.sh (called by make bench): every comparison figure in one run,
# written to $BENCH_DOC (Documentation/performance/):
#   host-callgrind.csv  instructions per message, 19 schemes x 4 sizes x 3 b
#   host-tsc.csv        TSC ticks per message, same run order (ratios only)
#   embedded.csv        AVR cycles / M4 instructions per message, sender
#   rekey.csv           the re-keying PRF and Diamond1's key-chain AES calls
#   sonikku.csv         SKINNY, ForkSkinny and SuperSonic per call
#   longmac-m4.csv      MACs of 16 B to 64 KB on the M4 (make bench-longmac)
#   kernel.txt          make bench-kernel output, when the kernel bench exists
#   comparison.md       the tables (bench/report.sh), *.png the plots
# and issue 22's one table into Documentation/performance.md (make
# bench-related-table; its plots in $BENCH_OUT/related/).
# BENCH_KERNEL=0 skips the kernel VM step (its kernel.txt is kept).
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
OUT=${BENCH_OUT:-$BUILD/bench}
DOC=${BENCH_DOC:-$TOP/Documentation/performance}
SCHEMES=${BENCH_FW_SCHEMES:-diamond1 diamond2 faae1 faae2 faae2_128a graphene1 graphene2 gcm ccm ocb3 supersonic umac64 umac128 zmac256 zmac192 pmac1 pmac2x256 vmac64 vmac128}
M4ONLY=${BENCH_FW_M4_ONLY-}
RECS=${BENCH_FW_RECS:-16 64 95 128}
MSGS=${BENCH_FW_MSGS:-1024}
MAKE=${MAKE:-make}
mkdir -p "$DOC"
t0=$SECONDS
step() { printf '[bench %3ds] %s\n' $((SECONDS - t0)) "$*"; }

step "1/6 host: callgrind instruction counts (about 40 s)"
"$TOP/bench/host/callgrind-csv.sh" "$OUT/bench-compare" "$DOC/host-callgrind.csv"
step "2/6 host: TSC ratios, 9 interleaved repetitions"
"$OUT/bench-compare" tsc > "$DOC/host-tsc.csv"

# Per-message figures of every scheme on both boards (bench/embedded-rows.sh).
step "3-4/6 AVR (avr-run, exact cycles) and Cortex-M4 (qemu + insn-count): $(( $(wc -w <<<"$SCHEMES $M4ONLY") * $(wc -w <<<"$RECS") )) images"
{
	echo "platform,scheme,rec,offline,online,close,total"
	BUILD=$BUILD BENCH_OUT=$OUT BENCH_FW_SCHEMES="$SCHEMES" BENCH_FW_M4_ONLY="$M4ONLY" \
		BENCH_FW_RECS="$RECS" BENCH_FW_MSGS=$MSGS "$TOP/bench/embedded-rows.sh"
} > "$DOC/embedded.csv.tmp"
mv "$DOC/embedded.csv.tmp" "$DOC/embedded.csv"

m4_sum() { BUILD=$BUILD "$TOP/bench/m4-sum.sh" "$@"; }

# Per-call firmware (not tests): one CSV line per board, the totals of
# region ids 1..N over REPS calls. per_call ELF-NAME N REPS
per_call() {
	local name=$1 n=$2 reps=$3 f line id
	f=$(mktemp)
	"$BUILD/tools/avr-run" "$OUT/avr/$name.elf" >/dev/null 2>"$f" ||
		{ echo "avr-run failed: $name" >&2; cat "$f" >&2; exit 1; }
	awk -v n="$n" -v reps="$reps" '/^avr-run: region/ { split($4, a, "="); c[$3] += a[2] }
		END { printf "avr"; for (i = 1; i <= n; i++) printf ",%.0f", c[i] / reps; printf "\n" }' "$f"
	rm -f "$f"
	line=m4
	for id in $(seq 1 "$n"); do
		line=$line,$(( $(m4_sum "$OUT/m4/$name.elf" "$id") / reps ))
	done
	echo "$line"
}

# bench/fw/rekey_fw.c: 64 calls per region, ids as listed there.
step "5/6 re-keying PRF against Diamond1's key-chain AES calls, both boards"
{
	echo "platform,rekey_prf,aes_schedule,aes_block,d1_chain_step,d1_slot_48B,d1_chain_step_rekeyed"
	per_call rekey 6 64
} > "$DOC/rekey.csv.tmp"
mv "$DOC/rekey.csv.tmp" "$DOC/rekey.csv"

# bench/fw/sonikku_fw.c: 8 calls per region, ids as listed there.
step "5b/6 SKINNY, ForkSkinny and SuperSonic per call, both boards"
{
	echo "platform,skinny384,fork384_c1,fork384_both,sonic384_setup,sonic384_16,sonic384_64,sonic384_95,sonic384_128,sonic256_16,sonic256_64,sonic256_95,sonic256_128,skinny256,fork256_c1"
	per_call sonikku 14 8
} > "$DOC/sonikku.csv.tmp"
mv "$DOC/sonikku.csv.tmp" "$DOC/sonikku.csv"

# bench/fw/longmac_fw.c: SuperSonic against ZMAC, 16 B to 64 KB (issue 32).
step "5c/6 SuperSonic against ZMAC, PMAC, VMAC, 16 B to 64 KB, Cortex-M4"
$MAKE -s -C "$TOP" bench-longmac > "$OUT/longmac.md"

step "6/6 kernel: the kernel engineer's make bench-kernel (VM, -icount)"
if [ "${BENCH_KERNEL:-1}" = 0 ]; then
	echo "bench: BENCH_KERNEL=0, kernel.txt kept as it is" >&2
elif $MAKE -s -n -C "$TOP" bench-kernel >/dev/null 2>&1; then
	if $MAKE -s -C "$TOP" bench-kernel > "$DOC/kernel.txt.tmp" 2>&1; then
		mv "$DOC/kernel.txt.tmp" "$DOC/kernel.txt"
	else
		echo "bench: make bench-kernel failed; kernel figures not updated" >&2
		tail -5 "$DOC/kernel.txt.tmp" >&2
		rm -f "$DOC/kernel.txt.tmp"
	fi
else
	echo "bench: no bench-kernel target yet; kernel figures skipped" >&2
fi

step "report: tables and plots"
"$TOP/bench/report.sh" "$DOC"
step "related: issue 22's one table into performance.md, its plots under $OUT/related"
$MAKE -s -C "$TOP" bench-related-table
step "done: $DOC"
