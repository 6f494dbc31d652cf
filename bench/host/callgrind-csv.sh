#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# callgrind-csv.sh BENCH_COMPARE OUT.csv: run bench-compare under callgrind
# (collection off except inside the measured phases) and turn its dumps,
# one per phase and epoch, labelled "scheme|rec|b|phase|messages", into
#   scheme,rec,b,tx_off,tx_on,rx_off,rx_on
# instructions per message. Deterministic: same binary, same figures.
set -euo pipefail
bin=$1 out=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

valgrind --tool=callgrind --collect-atstart=no --dump-instr=no \
	--compress-strings=no --compress-pos=no \
	--callgrind-out-file="$tmp/cg.%p" "$bin" callgrind >/dev/null 2>"$tmp/log" ||
	{ cat "$tmp/log" >&2; exit 1; }

# Each dump: "desc: Trigger: Client Request: LABEL" and "totals: N".
# Dumps are numbered cg.PID.N in run order, which is the driver's order.
find "$tmp" -name 'cg.*.*' | sort -t. -k3n | xargs awk '
	/^desc: Trigger: Client Request: / { label = $5 }
	/^totals:/ { print label, $2 }' |
awk '
	$1 ~ /\|/ {
		split($1, f, "|")
		key = f[1] "," f[2] "," f[3]
		sum[key, f[4]] += $2; msgs[key, f[4]] += f[5]
		if (!(key in seen)) { seen[key] = 1; order[n++] = key }
	}
	END {
		print "scheme,rec,b,tx_off,tx_on,rx_off,rx_on"
		split("tx_off tx_on rx_off rx_on", ph, " ")
		for (i = 0; i < n; i++) {
			k = order[i]; line = k
			for (p = 1; p <= 4; p++)
				line = line sprintf(",%.1f", sum[k, ph[p]] / msgs[k, ph[p]])
			print line
		}
	}' > "$out"
