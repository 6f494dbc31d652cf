// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The packet receiver's kernel backend: diamond.ko's tag grid
 * (Documentation/kernel-api.rst, "Packet radio: the tag grid (authsize
 * 12)"). One tfm per packet-mode device, keyed with the receiver's state
 * in the restore form (its cursor, keys and window) and set to authsize
 * 12; one request per try of one unit at one position, the 32-byte control
 * table as the AAD; a give-up request to move the tfm's cursor where the
 * receiver's policy moves its own. The module releases, and keeps per
 * unit what it released, so the plaintext handed on is exactly what it
 * said verified, and a record is never released twice whatever the
 * receiver asks.
 *
 * The receiver's own state (cursor, E_{e_c+1}, R_{e_c,16u_c} and the
 * bitmaps, prx_cursor.c) follows the tfm's: each answer carries the tfm's
 * cursor, and every verdict is checked against the bitmaps the receiver
 * holds. What the receiver stores is what a restarted gateway keys the
 * tfm with, so the tfm needs no export (the module has none for a grid
 * state yet).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* kernel-api.rst's constants, as <diamond/spec.h> names them. */
#ifndef DMD_GRID_TABLE_SIZE
#define DMD_GRID_TABLE_SIZE	32
#define DMD_GRID_OFF_UNIT	0
#define DMD_GRID_OFF_HELD	4
#define DMD_GRID_OFF_TAGS	6
#define DMD_GRID_OFF_FLAGS	7
#define DMD_GRID_OFF_RELEASED	8
#define DMD_GRID_OFF_VERIFIED	10
#define DMD_GRID_OFF_STATE	11
#define DMD_GRID_OFF_UNIT_REL	12
#define DMD_GRID_OFF_UNIT_VER	14
#define DMD_GRID_OFF_CUR_EPOCH	16
#define DMD_GRID_OFF_CUR_UNIT	24
#define DMD_GRID_GIVE_UP	0x01
#define DMD_GRID_DECIDED	0x01
#define DMD_GRID_WINDOW		16
#define DMD_GRID_CURSOR_SIZE(k)	(12 + (k) + 3 * DMD_GRID_WINDOW)
#endif

#define KGRID_AUTHSIZE		DMD_PKT_TAG_SIZE

/* A device's grid tfm and where the module said its cursor stands. */
struct dlib_kgrid {
	struct dlib_ktfm *k;
	uint64_t ec;
	uint32_t uc;
	uint32_t units;		/* b / 16 */
	uint8_t buf[2][DLIB_KGRID_MAX];	/* request and answer */
};

uint64_t dlib_kgrid_distance(uint32_t units, uint64_t ec, uint32_t uc,
			     uint64_t e, uint32_t u)
{
	return (e - ec) * units + u - uc;
}

ssize_t dlib_kgrid_key(const struct dlib_pstate *ps, uint8_t *key)
{
	uint32_t units = ps->st.b / DMD_GRID_UNIT;
	uint64_t ec = ps->st.epoch - 1, d;
	size_t k = dmd_key_size(ps->st.suite), n, i;
	struct dmd_state st = ps->st;
	uint8_t *w;

	st.flags |= DMD_BLOB_FLAG_OPEN_ONLY;
	dmd_blob2_write(key, &st);
	dmd_wipe(&st, sizeof(st));
	n = dmd_blob2_size(ps->st.suite);
	dmd_store64_le(key + n, ec);
	dmd_store32_le(key + n + 8, ps->uc);
	memcpy(key + n + 12, ps->rc, k);
	w = key + n + 12 + k;
	memset(w, 0, 3 * DMD_GRID_WINDOW);
	for (i = 0; i < ps->n; i++) {
		const struct dlib_pbits *b = &ps->unit[i];

		/* The receiver holds bitmaps only within the window. */
		if (dlib_pos_before(b->e, b->u, ec, ps->uc))
			continue;
		d = dlib_kgrid_distance(units, ec, ps->uc, b->e, b->u);
		if (d >= DMD_GRID_WINDOW) {
			dmd_wipe(key, n + 12 + k);
			return -ERANGE;
		}
		dmd_store16_le(w + 2 * d, b->rel);
		w[2 * DMD_GRID_WINDOW + d] = b->ver;
	}
	return (ssize_t)(n + DMD_GRID_CURSOR_SIZE(k));
}

size_t dlib_kgrid_request(const struct dmd_grid_unit *g, uint32_t u,
			  uint8_t flags, uint8_t *in)
{
	uint16_t held = 0;
	uint8_t tags = 0;
	size_t at = DMD_GRID_TABLE_SIZE;
	unsigned int r, t;

	memset(in, 0, DMD_GRID_TABLE_SIZE);
	for (r = 0; g && r < DMD_GRID_UNIT; r++) {
		if (!g->rec[r])
			continue;
		held |= (uint16_t)(1u << r);
		dmd_store16_le(in + at, (uint16_t)g->len[r]);
		memcpy(in + at + 2, g->rec[r], g->len[r]);
		at += 2 + g->len[r];
	}
	for (t = 0; g && t < DMD_GRID_TAGS; t++) {
		if (!g->tag[t])
			continue;
		tags |= (uint8_t)(1u << t);
		memcpy(in + at, g->tag[t], DMD_PKT_TAG_SIZE);
		at += DMD_PKT_TAG_SIZE;
	}
	if (!tags) {	/* a give-up: the placeholder the crypto API wants */
		memset(in + at, 0, KGRID_AUTHSIZE);
		at += KGRID_AUTHSIZE;
	}
	dmd_store32_le(in + DMD_GRID_OFF_UNIT, u);
	dmd_store16_le(in + DMD_GRID_OFF_HELD, held);
	in[DMD_GRID_OFF_TAGS] = tags;
	in[DMD_GRID_OFF_FLAGS] = flags;
	return at;
}

int dlib_kgrid_verdict(const uint8_t *out, size_t outlen,
		       struct dmd_grid_unit *g, uint16_t before,
		       struct dmd_grid_verdict *v, uint64_t *ec, uint32_t *uc)
{
	uint16_t held = dmd_load16_le(out + DMD_GRID_OFF_HELD);
	uint16_t rel = dmd_load16_le(out + DMD_GRID_OFF_RELEASED);
	uint16_t unit_rel = dmd_load16_le(out + DMD_GRID_OFF_UNIT_REL);
	size_t at = DMD_GRID_TABLE_SIZE;
	unsigned int r;

	if (outlen < DMD_GRID_TABLE_SIZE)
		return -EIO;
	/*
	 * What the module released must be new, held, and with what the
	 * receiver says was released before, all the unit has released:
	 * else the two disagree, and nothing is handed on.
	 */
	if ((rel & ~held) || (rel & before) || unit_rel != (before | rel))
		return -EIO;
	for (r = 0; r < DMD_GRID_UNIT; r++) {
		if (!(held >> r & 1))
			continue;
		if (at + 2 > outlen || at + 2 + g->len[r] > outlen)
			return -EIO;
		if (rel >> r & 1)
			memcpy(g->pt[r], out + at + 2, g->len[r]);
		at += 2 + g->len[r];
	}
	v->released = rel;
	v->verified = out[DMD_GRID_OFF_VERIFIED];
	*ec = dmd_load64_le(out + DMD_GRID_OFF_CUR_EPOCH);
	*uc = dmd_load32_le(out + DMD_GRID_OFF_CUR_UNIT);
	return 0;
}

/* One request on @kg for unit @u of epoch @e: bytes of the answer or -errno. */
static ssize_t request(struct dlib_kgrid *kg, uint64_t e, uint32_t u,
		       const struct dmd_grid_unit *g, uint8_t flags)
{
	uint8_t iv[DMD_IV_SIZE];
	size_t inlen = dlib_kgrid_request(g, u, flags, kg->buf[0]);
	size_t outlen = inlen - KGRID_AUTHSIZE;
	ssize_t n;

	dmd_store64_le(iv, e);
	n = dlib_ktfm_decrypt(kg->k, kg->buf[0], inlen, DMD_GRID_TABLE_SIZE,
			      iv, kg->buf[1], outlen);
	dmd_wipe(kg->buf[0], inlen);
	if (n >= 0 && (size_t)n != outlen) {
		dmd_wipe(kg->buf[1], outlen);
		return -EIO;
	}
	return n;
}

int dlib_kgrid_attach(void **gh, const struct dlib_pstate *ps,
		      const char *name)
{
	uint8_t key[DLIB_KGRID_KEY_MAX];
	struct dlib_kgrid *kg;
	ssize_t len;
	int rc;

	if (dmd_packet_key_check(&ps->st) != DMD_OK)
		return -EKEYREJECTED;
	len = dlib_kgrid_key(ps, key);
	if (len < 0)
		return (int)len;
	kg = calloc(1, sizeof(*kg));
	if (!kg) {
		dmd_wipe(key, sizeof(key));
		return -ENOMEM;
	}
	rc = dlib_ktfm_open_as(name, key, (size_t)len, KGRID_AUTHSIZE, &kg->k);
	dmd_wipe(key, sizeof(key));
	if (rc) {
		free(kg);
		return rc;
	}
	kg->ec = ps->st.epoch - 1;
	kg->uc = ps->uc;
	kg->units = ps->st.b / DMD_GRID_UNIT;
	*gh = kg;
	return 0;
}

int dlib_kgrid_open(void *gh, unsigned int suite, const uint8_t *r,
		    uint64_t e, uint32_t u, struct dmd_grid_unit *g,
		    uint16_t before, struct dmd_grid_verdict *v)
{
	struct dlib_kgrid *kg = gh;
	ssize_t n;
	int rc;

	(void)suite;
	(void)r;
	v->released = 0;
	v->verified = 0;
	n = request(kg, e, u, g, 0);
	if (n < 0)
		return (int)n;
	rc = dlib_kgrid_verdict(kg->buf[1], (size_t)n, g, before, v, &kg->ec,
				&kg->uc);
	dmd_wipe(kg->buf[1], (size_t)n);
	return rc ? rc : v->verified ? 0 : -EIO;
}

int dlib_kgrid_decide(void *gh, uint64_t e, uint32_t u)
{
	struct dlib_kgrid *kg = gh;
	uint64_t pe = u ? e : e - 1;
	uint32_t pu = u ? u - 1 : kg->units - 1;
	ssize_t n;

	if (!dlib_pos_before(kg->ec, kg->uc, e, u))
		return 0;	/* the module is there already */
	/* Give up the unit before (e, u): it and every unit before it. */
	n = request(kg, pe, pu, NULL, DMD_GRID_GIVE_UP);
	if (n < 0)
		return (int)n;
	kg->ec = dmd_load64_le(kg->buf[1] + DMD_GRID_OFF_CUR_EPOCH);
	kg->uc = dmd_load32_le(kg->buf[1] + DMD_GRID_OFF_CUR_UNIT);
	return dlib_pos_before(kg->ec, kg->uc, e, u) ? -EIO : 0;
}

void dlib_kgrid_cursor(const void *gh, uint64_t *e, uint32_t *u)
{
	const struct dlib_kgrid *kg = gh;

	*e = kg->ec;
	*u = kg->uc;
}

void dlib_kgrid_drop(void *gh)
{
	struct dlib_kgrid *kg = gh;

	if (!kg)
		return;
	dlib_ktfm_close(kg->k);
	dmd_wipe(kg, sizeof(*kg));
	free(kg);
}
