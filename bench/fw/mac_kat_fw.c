// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mac-kat on a board: ZMAC, PMAC1 and PMAC2x on SKINNY-128-256 and
 * SKINNY-64-192 (bench/baselines/zmac.h, pmac.h) against the answers of
 * vectors/skinny-macs.txt that mac-kat-header.sh put in flash (all 1,009
 * on the M4, the messages of at most MAC_KAT_MAXLEN bytes on the AVR),
 * and SKINNY-64-192 against the SKINNY paper's vector. One TAP line per
 * MAC with the number of answers checked (fw_tap.h). Then VMAC-64 and
 * VMAC-128 (bench/baselines/vmac.h) against every row of vmac_vectors.h,
 * one line each; the AVR skips the two 3,000,000-byte messages (more
 * than its RAM).
 */
#include "board.h"
#include "fw_tap.h"
#include "mac_kat.h"	/* generated: mac_kat_blob, MAC_KAT_COUNT */
#include "skinny64.h"
#include "skinny64_vectors.h"
#include "skinny_macs.h"
#include "vmac.h"
#include "vmac_vectors.h"

#include <diamond/util.h>

#define NMACS	SKINNY_MACS

static uint8_t key[16], m[MAC_KAT_MAXLEN], want[32], got[32];
static unsigned int good[NMACS];

/* One record of the blob at @off; returns the next record's offset. */
static size_t check_record(size_t off)
{
	uint8_t hdr[2];
	size_t len;
	unsigned int i;

	board_flash_read(hdr, mac_kat_blob + off, 2);
	len = (size_t)hdr[0] | (size_t)hdr[1] << 8;
	board_flash_read(key, mac_kat_blob + off + 2, 16);
	board_flash_read(m, mac_kat_blob + off + 18, len);
	off += 18 + len;
	for (i = 0; i < NMACS; i++) {
		board_flash_read(want, mac_kat_blob + off, skinny_mac_taglen[i]);
		off += skinny_mac_taglen[i];
		skinny_mac(i, key, m, len, got);
		good[i] += dmd_ct_equal(got, want, skinny_mac_taglen[i]);
	}
	return off;
}

#ifdef __AVR__
#define VMAC_FW_MAXLEN	VMAC_KAT_MAXLEN
#else
#define VMAC_FW_MAXLEN	3000000
#endif

static uint8_t vm[VMAC_FW_MAXLEN];

/* "vmac_vectors.h row N" */
static const char *row_name(unsigned int n)
{
	static char b[32] = "vmac_vectors.h row ";
	char *p = b + 19;

	if (n >= 10)
		*p++ = (char)('0' + n / 10);
	*p++ = (char)('0' + n % 10);
	*p = 0;
	return b;
}

static void vmac_row(const struct vmac_vec *v, unsigned int n)
{
	static struct vmac_key k;
	uint8_t tag[16];
	size_t len;

	if (3 * (size_t)v->reps > sizeof(vm)) {
		fw_tap_skip(v->taglen == 8 ? "VMAC-64" : "VMAC-128", row_name(n),
			    "a 3,000,000-byte message, more than this board's RAM");
		return;
	}
	len = vmac_vec_message(v, vm);
	vmac_init(&k, (const uint8_t *)v->key, v->taglen);
	vmac_tag(&k, (const uint8_t *)v->nonce, v->nlen, vm, len, tag);
	vmac_wipe(&k);
	fw_tap_report(dmd_ct_equal(tag, (const uint8_t *)v->tag, v->taglen),
		      v->taglen == 8 ? "VMAC-64" : "VMAC-128", row_name(n));
}

static void skinny64_paper(void)
{
	uint8_t c[8];

	skinny64_192_encrypt(skinny64_tk, skinny64_pt, c);
	fw_tap_report(dmd_ct_equal(c, skinny64_ct, 8), "SKINNY-64-192", "the SKINNY paper's vector");
}

int main(void)
{
	size_t off = 0;
	unsigned int i, n;

	board_init();
	board_puts("TAP version 13\n# ZMAC, PMAC1, PMAC2x on SKINNY on " BOARD_NAME "\n");
	skinny64_paper();
	for (n = 0; n < MAC_KAT_COUNT; n++)
		off = check_record(off);
	for (i = 0; i < NMACS; i++) {
		board_puts("# ");
		board_puts(skinny_mac_names[i]);
		board_puts(": ");
		fw_tap_uint(good[i]);
		board_puts(" of ");
		fw_tap_uint(MAC_KAT_COUNT);
		board_puts(" answers\n");
		fw_tap_report(good[i] == MAC_KAT_COUNT && off + 1 == sizeof(mac_kat_blob),
			      skinny_mac_names[i], "every answer in flash");
	}
	for (n = 0; n < sizeof(vmac_vecs) / sizeof(vmac_vecs[0]); n++) {
		struct vmac_vec v;

		board_flash_read(&v, &vmac_vecs[n], sizeof(v));
		vmac_row(&v, n + 1);
	}
	fw_tap_done();
}
