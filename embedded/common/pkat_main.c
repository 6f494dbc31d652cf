// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Packet known answers on the target (TAP on the link): every sealed
 * epoch of vectors/packet.txt for the build's suite (spec section 14.8,
 * header from embedded/tools/pkt-kat-gen.py) through dmd_psender_* on the
 * board's own core, AVR-tuned primitives included: each packet byte for
 * byte, then the reservation. The vectors come from OpenSSL and a
 * bit-serial GHASH (tools/vectors/), sharing no code with the core.
 */
#include <diamond/packet.h>
#include <diamond/util.h>
#include "board.h"

struct pkat_rec {
	uint8_t anchor, len;
	uint16_t pt_off;
	uint8_t pkt_len;
	uint16_t pkt_off;
};

struct pkat_vec {
	char name[20];
	const uint8_t *key, *next, *pt, *pkt;
	const struct pkat_rec *recs;
	uint8_t key_len, next_len, a;
	uint32_t addr;
	uint16_t nrec;
};

#include "pkat-vectors.h"

static uint8_t window[WINDOW_BYTES];
static struct dmd_psender ps;
static uint8_t m[DMD_PKT_MAX_RECORD], want[DMD_PKT_MAX], got[DMD_PKT_MAX];
static uint8_t blob[DMD_BLOB2_MAX];
static unsigned int test_no, failures;

static void put_uint(unsigned int v)
{
	char b[12], *p = b + sizeof(b) - 1;

	*p = 0;
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	board_puts(p);
}

static void result(int ok, const char *name, const char *what)
{
	failures += !ok;
	board_puts(ok ? "ok " : "not ok ");
	put_uint(++test_no);
	board_puts(" - ");
	board_puts(name);
	board_puts(what);
}

/* Public bytes: a plain compare. */
static int differ(const uint8_t *a, const uint8_t *b, size_t n)
{
	while (n--)
		if (*a++ != *b++)
			return 1;
	return 0;
}

/* Seal every record of @v; the number of packets that differ. */
static unsigned int seal_all(const struct pkat_vec *v)
{
	struct pkat_rec r;
	unsigned int j, bad = 0;
	size_t n;

	for (j = 0; j < v->nrec; j++) {
		board_flash_read(&r, &v->recs[j], sizeof(r));
		board_flash_read(m, v->pt + r.pt_off, r.len);
		board_flash_read(want, v->pkt + r.pkt_off, r.pkt_len);
		if (dmd_psender_seal(&ps, m, r.len, r.anchor, got, sizeof(got),
				     &n) != DMD_OK || n != r.pkt_len ||
		    differ(got, want, n))
			bad++;
	}
	return bad;
}

static void run(const struct pkat_vec *v)
{
	struct dmd_state st, reserve;
	int ok;

	board_flash_read(blob, v->key, v->key_len);
	ok = dmd_blob_parse(&st, blob, v->key_len) == DMD_OK &&
	     dmd_psender_init(&ps, &st, v->a, v->addr, window, sizeof(window),
			      16) == DMD_OK &&
	     dmd_psender_begin(&ps, &reserve) == DMD_OK;
	ok = ok && !seal_all(v);
	result(ok, v->name, ": every packet is the vector's, byte for byte\n");
	board_flash_read(want, v->next, v->next_len);
	dmd_blob2_write(blob, &reserve);
	result(ok && dmd_blob2_size(reserve.suite) == v->next_len &&
	       !differ(blob, want, v->next_len), v->name,
	       ": the reservation is the vector's next\n");
	dmd_psender_wipe(&ps);
	dmd_wipe(&st, sizeof(st));
	dmd_wipe(&reserve, sizeof(reserve));
}

int main(void)
{
	struct pkat_vec v;
	unsigned int i;

	board_init();
	board_puts("TAP version 13\n1..");
	put_uint(2 * PKAT_VECS);
	board_puts("\n");
	for (i = 0; i < PKAT_VECS; i++) {
		board_flash_read(&v, &pkat_vecs[i], sizeof(v));
		run(&v);
	}
	board_exit(failures ? 1 : 0);
}
