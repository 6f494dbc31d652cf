# SPDX-License-Identifier: GPL-2.0 OR MIT
# shellcheck shell=bash disable=SC2016 # the checks are eval'ed by t()
#
# custody-item6.sh: issue 20 item 6, the compromised-gateway test at the
# gateway's level, sourced by the userspace-vm suite (vm.sh, Debian 12's
# kernel) and by the matrix cells' custody suite (custody-cell.sh, the
# cell's kernel). Three steps, one function each:
#
#   item6_prepare D CP OUT   on the host: three devices (suites 1 and 2),
#       their sealed traffic (frames.bin, a few epochs each), device 5's
#       next epoch forged (one ciphertext bit: the process reaches no key
#       and its tfms refuse to seal) followed by its genuine epoch after
#       that (after.bin), the software open's line count (nlines), the
#       keys the test derives from the root's states (keys.hex: E_e,
#       E_{e+1}, R_{e,j}, R_{e+1,j} of the first and the current state,
#       custody_probe keys), the guest's script (guest.sh) and the probe
#       for the guest (GUEST_PROBE, default CP). OUT goes to the guest as
#       /w/i6.
#   sh /w/i6/guest.sh        in the guest, as root, the module loaded:
#       the loader (diamondctl keys load) as root, the custody gateway as
#       uid 65534 under custody_probe run (memory, state directory, keys,
#       AF_ALG sockets, encrypt, every key it reaches by serial on every
#       algorithm and the red team's unwrap, then after.bin), the same
#       against a clear-key gateway, and a planted diamond:wrap. Lines
#       "@@i6kernel ...", "@@i6a ...", "@@i6b ...", "@@i6plant ...".
#   item6_tap                TAP lines from the console (t and sec, below,
#       which the suites use for theirs too); nlines in $I6.

item6_prepare() {
	local D=$1 CP=$2 o=$3 i
	mkdir -p "$o" && (
		set -e
		cd "$o"
		"$D" keygen -o root
		"$D" provision --root root --device 5 --suite 1 --agg xor --b 8 --blob d5.bin --state-dir st >/dev/null
		"$D" provision --root root --device 6 --suite 2 --agg hash --b 4 --blob d6.bin --state-dir st >/dev/null
		"$D" provision --root root --device 70000 --suite 2 --agg add --b 16 --blob d7.bin --state-dir st >/dev/null
		cp -r st st.orig
		for i in $(seq 1 20); do echo "temp=$i.5 C"; done |
			"$D" seal --blob d5.bin --ad 6761746577617931 >f5.bin
		for i in $(seq 1 10); do printf 'binary\001%d\n' "$i"; done |
			"$D" seal --blob d6.bin --flush 3 >f6.bin
		for i in $(seq 1 40); do echo "reading $i"; done | "$D" seal --blob d7.bin >f7.bin
		cat f5.bin f6.bin f7.bin >frames.bin
		# Device 5's epoch 3 forged, then its genuine epoch 4.
		for i in $(seq 21 28); do echo "temp=$i.5 C"; done |
			"$D" seal --blob d5.bin --ad 6761746577617931 >forged.bin
		printf '\x01' | dd of=forged.bin bs=1 seek=21 conv=notrunc 2>/dev/null
		for i in $(seq 29 36); do echo "temp=$i.5 C"; done |
			"$D" seal --blob d5.bin --ad 6761746577617931 >n5.bin
		cat forged.bin n5.bin >after.bin
		"$D" open --software --state-dir st --input frames.bin 2>/dev/null | wc -l >nlines
		"$CP" keys st.orig/*.state st/*.state | tr '\n' ' ' >keys.hex
		cp "${GUEST_PROBE:-$CP}" custody_probe
		rm -rf st root ./*.bin.lock
		item6_guest >guest.sh
	)
}

# The suites' TAP: t NAME CHECK, one result (CHECK eval'ed), counted in
# n and fails, which the caller sets to 0, and its status; sec TAG, the guest's "@@TAG "
# lines of console.txt.
t() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fails=$((fails + 1)); return 1; fi
}
sec() { sed -n "s/^@@$1 //p" console.txt | tr -d '\r'; }

# The guest's side (POSIX sh, busybox): as root the loader, the rest as
# uid 65534 (its group may bind the module's AF_ALG type "diamond"; on 7.3
# af_alg_restrict stays 1). The gateway is the probe's child, so Yama lets
# it look.
item6_guest() {
	cat <<'SH'
I=/w/i6 K=/tmp/i6
echo 65534 >/sys/module/diamond/parameters/afalg_gid || echo "@@i6noafalg"
echo "@@i6restrict $(cat /proc/sys/crypto/af_alg_restrict 2>/dev/null || echo none)"
echo "@@i6kernel $(uname -r)"
mkdir -p $K/ck $K/cst $K/sc && cp $I/st.orig/*.state $K/ck/ &&
	cp $I/st.orig/*.state $K/sc/ && chmod 700 $K/ck $K/cst $K/sc &&
	chown -R 65534:65534 $K/cst $K/sc && chmod 755 $K
diamondctl keys load --keys $K/ck --state-dir $K/cst --user 65534:65534 -- \
	/w/i6/custody_probe run $(cat $I/nlines) $K/cst $I/frames.bin $I/after.bin \
	$(cat $I/keys.hex) -- diamondctl open --custody --no-spool --state-dir $K/cst \
	2>&1 | sed 's/^/@@i6a /'
diamondctl keys load --keys $K/nokeys --state-dir $K/sc --user 65534:65534 -- \
	/w/i6/custody_probe run $(cat $I/nlines) $K/sc $I/frames.bin $I/after.bin \
	$(cat $I/keys.hex) -- diamondctl open --no-spool --state-dir $K/sc \
	2>&1 | sed 's/^/@@i6b /'
# What a planted logon diamond:wrap of its own gets out of a tfm keyed by
# reference: reported; the kselftest diamond_wrap asserts it.
mkdir -p $K/cp && chown 65534:65534 $K/cp && chmod 700 $K/cp
diamondctl keys load --keys $K/ck --state-dir $K/cp --user 65534:65534 -- \
	/w/i6/custody_probe plant 5 2>&1 | sed 's/^/@@i6plant /'
SH
}

# hits WHO: "MEM FILES KEYS SOCKETS" of run WHO (a custody, b clear).
item6_hits() {
	sec "i6$1" | sed -n 's/^hits mem \([0-9-]*\) files \([0-9-]*\) keys \([0-9-]*\) sockets \([0-9-]*\)$/\1 \2 \3 \4/p'
}

# TAP line NAME, skipped for REASON: counted in n, not in fails.
tskip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

# Issue 34 item 2: keys by serial (ALG_SET_KEY_BY_KEY_SERIAL, Linux 6.2).
# Every key the ingest reaches, tried on every algorithm as every AF_ALG
# type, must be refused; nothing it got may unwrap outside the kernel.
item6_serial_tap() {
	local kv mm n1 n2
	kv=$(sec i6kernel) mm=
	[[ $kv =~ ^([0-9]+)\.([0-9]+) ]] &&
		mm=$((BASH_REMATCH[1] * 1000 + BASH_REMATCH[2]))
	n1="item 6: custody: no key the ingest can reach is accepted by any algorithm by serial (every /proc/crypto name and driver as skcipher, aead, hash, rng and diamond)"
	n2="item 6: custody: no state unwrapped outside the kernel (every DMDW blob it got, with each key chacha20 took by serial)"
	if [ -n "$mm" ] && [ "$mm" -lt 6002 ]; then
		tskip "$n1" "6.1: AF_ALG has no keys by serial (every try is ENOPROTOOPT)"
		tskip "$n2" "6.1: AF_ALG has no keys by serial (every try is ENOPROTOOPT)"
	else
		t "$n1" 'sec i6a | grep -qE "^serial keys [1-9][0-9]* algs [0-9]+ binds [0-9]+ bound [0-9]+ tried [1-9][0-9]* accepted 0$"'
		t "$n2" 'sec i6a | grep -qE "^unwrapped 0 of [1-9][0-9]* blobs hits 0$"'
	fi
	echo "# item 6, keys by serial ($kv): $(sec i6a | grep -E '^(serial keys|serial refused|unwrapped)' | tr '\n' ' ')"
	# The acceptances by key and type: how many, the algorithms' names.
	sec i6a | sed -n 's/^serial accepted //p' | awk '{
		t = $1; c = substr($3, 2, length($3) - 2); d = $0; sub(/.* key /, "", d)
		k = d; sub(/;.*/, "", k); sub(/.*;/, "", d); x = k ":" d " " t
		if (index(" " g[x] " ", " " c " ") == 0) g[x] = g[x] " " c
		m[x]++
	} END { for (x in g) print x " (" m[x] "):" g[x] }' | sort |
		sed 's/^/# item 6, accepted by serial: /'
}

item6_tap() {
	local n6
	n6=$(cat "$I6/nlines")
	t "item 6: custody gateway as uid 65534 opened the traffic ($n6 lines) and was searched ($(wc -w <"$I6/keys.hex") keys: E_e, E_{e+1}, R_{e,j}, R_{e+1,j})" \
		'sec i6a | grep -q "^lines $n6 patterns [1-9][0-9]* mem-bytes [1-9]"'
	t "item 6: custody: 0 hits in its memory, state directory, keys and AF_ALG sockets" \
		'[ "$(item6_hits a)" = "0 0 0 0" ]'
	t "item 6: custody: its AF_ALG sockets were taken and asked (pidfd_getfd; DIAMOND_ALG_GET_WRAPPED exports read)" \
		'sec i6a | grep -qE "^sockets af_alg [1-9][0-9]* tfms [1-9][0-9]* options [0-9]+ exports [1-9]"'
	t "item 6: custody: encrypt on each of its tfms refused with EPERM" \
		'sec i6a | grep -qE "^encrypt EPERM [1-9][0-9]* allowed 0 other 0$"'
	t "item 6: custody: diamond:wrap is found but cannot be read" \
		'sec i6a | grep -q "^read diamond:wrap Operation not supported"'
	t "item 6: custody: the forged epoch is rejected (bad tag: EBADMSG), the next genuine epoch verifies" \
		'sec i6a | grep -q "device 5 epoch 3 rejected: bad tag" && sec i6a | grep -q "^after lines 8 exit 1$"' ||
		sec i6a | grep -E "rejected|^after lines|error|diamondctl:" | head -n 12 | sed 's/^/# i6a: /'
	t "item 6: the same search against a clear-key gateway finds the keys in its memory and state files (the test can fail)" \
		'read -r hm hf _ <<<"$(item6_hits b)" && [ "${hm:-0}" -gt 0 ] && [ "${hf:-0}" -gt 0 ]'
	item6_serial_tap
	echo "# item 6, custody: $(sec i6a | grep -E '^(lines|hits|sockets|encrypt|keyring viewable)' | tr '\n' ' ')"
	echo "# item 6, clear keys: $(sec i6b | grep -E '^(hits|sockets|encrypt)' | tr '\n' ' ')"
	echo "# item 6, af_alg_restrict $(sec i6restrict); a planted diamond:wrap: $(sec i6plant | tr '\n' ' ')"
}
