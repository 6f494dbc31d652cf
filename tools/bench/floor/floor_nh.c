// SPDX-License-Identifier: GPL-2.0
/*
 * dmd_floor's parameter "nh" (issue 22, item 1; Documentation/
 * performance.md, "NH against Poly1305 on long records"): what one
 * record's hash costs at 256 B to 4 KiB on this kernel's own code, read
 * under qemu -icount shift=0, where guest ns are instructions:
 *
 *   poly1305     poly1305_init/update/final() under a fresh 32-byte
 *                one-time key, diamond.ko's suite-2 record hash
 *   nh-fixed     Adiantum's NH + Poly1305 (below) under one key set
 *                once, one digest per record
 *   nh-rekeyed   the same with a fresh key per record, as Diamond's
 *                one-time hash keys would need: NH_KEY_SIZE bytes of
 *                ChaCha20 keystream, the setkey, the digest
 *   chacha20     the record's own keystream, LEN bytes of ChaCha20 (what
 *                suite 2 encrypts with whatever the hash), so the hash's
 *                share of a record's work can be read off
 *
 * Lines: "driver nhpoly1305 DRIVER", then per length
 * "nh LEN poly1305 NS nh-fixed NS nh-rekeyed NS chacha20 NS", guest ns
 * per record (the median of @reps runs of NH_RECORDS records), then
 * "status ok"; or "skip nhpoly1305 ..." on a kernel with neither way
 * below.
 *
 * 6.x has NH + Poly1305 as the "nhpoly1305" shash (its arch drivers
 * nhpoly1305-avx2, -neon, ...); 7.x moved NH into lib/crypto (libnh, for
 * Adiantum), where this file composes the same hash from nh() per 1 KiB
 * chunk and Poly1305 over the chunks' 32-byte NH values (the DRIVER word
 * "lib-nh+poly1305"), keyed by 32 bytes of Poly1305 key and NH_KEY_BYTES.
 */
#include <crypto/chacha.h>
#include <crypto/hash.h>
#include <crypto/poly1305.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "diamond_compat.h"
#include "floor.h"

#define NH_RECORDS	16	/* records per timed run */
#define NH_LEN_MAX	4096

#if IS_ENABLED(CONFIG_CRYPTO_NHPOLY1305)
#include <crypto/nhpoly1305.h>
#define NH_SHASH	1
#define NH_LIB		0
#define NH_KEY_SIZE	NHPOLY1305_KEY_SIZE
#elif IS_ENABLED(CONFIG_CRYPTO_LIB_NH)
#include <crypto/nh.h>
#define NH_SHASH	0
#define NH_LIB		1
#define NH_KEY_SIZE	(32 + NH_KEY_BYTES)	/* Poly1305 r || s, then NH's */
#else
#define NH_SHASH	0
#define NH_LIB		0
#define NH_KEY_SIZE	0
#endif

static const unsigned int nh_lens[] = { 256, 512, 1024, 2048, 4096 };

struct nh_run {
	struct crypto_shash *tfm;
	u8 *msg;		/* NH_LEN_MAX bytes */
	u8 *nhkey;		/* a fresh key per record (nh-rekeyed) */
	u8 *ks;			/* the record's keystream (chacha20) */
	u8 polykey[NH_RECORDS][32];
	u8 out[POLY1305_DIGEST_SIZE];
	char *buf;		/* the parameter's page */
	int len;
};

enum nh_way { NH_POLY1305, NH_FIXED, NH_REKEYED, NH_CHACHA20, NH_WAYS };

static __printf(2, 3) void nh_line(struct nh_run *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	r->len += vscnprintf(r->buf + r->len, PAGE_SIZE - r->len, fmt, ap);
	va_end(ap);
}

/* @len bytes of ChaCha20 keystream under @key into @dst (G's shape). */
static void nh_keystream(const u8 *key, u8 *dst, unsigned int len)
{
	struct chacha_state st;
	int i;

	dmd_chacha_init_consts(&st);
	for (i = 0; i < 8; i++)
		st.x[4 + i] = get_unaligned_le32(key + 4 * i);
	for (i = 12; i < 16; i++)
		st.x[i] = 0;
	dmd_chacha_crypt(&st, dst, page_address(ZERO_PAGE(0)), len, 20);
	memzero_explicit(&st, sizeof(st));
}

#if NH_SHASH
static int nh_setkey(struct nh_run *r)
{
	return crypto_shash_setkey(r->tfm, r->nhkey, NH_KEY_SIZE);
}

static int nh_digest(struct nh_run *r, unsigned int len)
{
	SHASH_DESC_ON_STACK(desc, r->tfm);
	int err;

	desc->tfm = r->tfm;
	err = crypto_shash_digest(desc, r->msg, len, r->out);
	shash_desc_zero(desc);
	return err;
}

static int nh_open(struct nh_run *r)
{
	r->tfm = crypto_alloc_shash("nhpoly1305", 0, 0);
	if (IS_ERR(r->tfm))
		return PTR_ERR(r->tfm);
	nh_line(r, "driver nhpoly1305 %s\n", crypto_shash_driver_name(r->tfm));
	return nh_setkey(r);
}

static void nh_close(struct nh_run *r)
{
	crypto_free_shash(r->tfm);
}
#elif NH_LIB
/* lib/crypto's NH reads its key as it is (u32 words): nothing to set. */
static int nh_setkey(struct nh_run *r)
{
	return 0;
}

/* Poly1305_{r || s}(NH(chunk 1) || NH(chunk 2) || ...), 1 KiB chunks. */
static int nh_digest(struct nh_run *r, unsigned int len)
{
	struct poly1305_desc_ctx pd;
	__le64 h[NH_NUM_PASSES];
	unsigned int off, n;

	poly1305_init(&pd, r->nhkey);
	for (off = 0; off < len; off += n) {
		n = min_t(unsigned int, len - off, NH_MESSAGE_BYTES);
		nh((const u32 *)(r->nhkey + 32), r->msg + off, n, h);
		poly1305_update(&pd, (const u8 *)h, sizeof(h));
	}
	poly1305_final(&pd, r->out);
	memzero_explicit(h, sizeof(h));
	return 0;
}

static int nh_open(struct nh_run *r)
{
	nh_line(r, "driver nhpoly1305 lib-nh+poly1305\n");
	return 0;
}

static void nh_close(struct nh_run *r)
{
}
#else
static int nh_setkey(struct nh_run *r)
{
	return -ENOENT;
}

static int nh_digest(struct nh_run *r, unsigned int len)
{
	return -ENOENT;
}

static int nh_open(struct nh_run *r)
{
	return -ENOENT;
}

static void nh_close(struct nh_run *r)
{
}
#endif

/* Record @i of @len bytes hashed one way; 0 or -errno. */
static int nh_record(struct nh_run *r, enum nh_way way, unsigned int i,
		     unsigned int len)
{
	struct poly1305_desc_ctx pd;
	int err;

	if (way == NH_CHACHA20) {
		nh_keystream(r->polykey[i], r->ks, len);
		return 0;
	}
	if (way == NH_POLY1305) {
		poly1305_init(&pd, r->polykey[i]);
		poly1305_update(&pd, r->msg, len);
		poly1305_final(&pd, r->out);
		return 0;
	}
	if (way == NH_REKEYED) {
		nh_keystream(r->polykey[i], r->nhkey, NH_KEY_SIZE);
		err = nh_setkey(r);
		if (err)
			return err;
	}
	return nh_digest(r, len);
}

static int nh_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Median guest ns per record of @n runs; -errno on failure. */
static s64 nh_time(struct nh_run *r, enum nh_way way, unsigned int len,
		   unsigned int n)
{
	u64 t[FLOOR_REPS_MAX], t0;
	unsigned int k, i;
	int err = 0;

	if (way == NH_FIXED)
		err = nh_setkey(r);
	for (k = 0; k < n && !err; k++) {
		t0 = ktime_get_ns();
		for (i = 0; i < NH_RECORDS && !err; i++)
			err = nh_record(r, way, i, len);
		t[k] = ktime_get_ns() - t0;
	}
	if (err)
		return err;
	sort(t, n, sizeof(t[0]), nh_cmp, NULL);
	return t[n / 2] / NH_RECORDS;
}

static void nh_run_lengths(struct nh_run *r, unsigned int reps)
{
	s64 ns[NH_WAYS];
	unsigned int l;
	int w;

	for (l = 0; l < ARRAY_SIZE(nh_lens); l++) {
		for (w = 0; w < NH_WAYS; w++) {
			ns[w] = nh_time(r, w, nh_lens[l], reps);
			if (ns[w] < 0) {
				nh_line(r, "error %u %d %lld\n", nh_lens[l], w, ns[w]);
				return;
			}
		}
		nh_line(r, "nh %u poly1305 %lld nh-fixed %lld nh-rekeyed %lld chacha20 %lld\n",
			nh_lens[l], ns[NH_POLY1305], ns[NH_FIXED],
			ns[NH_REKEYED], ns[NH_CHACHA20]);
	}
	nh_line(r, "status ok\n");
}

int floor_nh_get(char *buf, unsigned int reps)
{
	struct nh_run *r;
	int len, err;

	if (!NH_KEY_SIZE)
		return floor_vmac_lines(buf, sysfs_emit(buf, "skip nhpoly1305: not in this kernel\n"),
					reps);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->buf = buf;
	r->msg = kmalloc(2 * NH_LEN_MAX + NH_KEY_SIZE, GFP_KERNEL);
	if (!r->msg) {
		kfree(r);
		return -ENOMEM;
	}
	r->nhkey = r->msg + NH_LEN_MAX;
	r->ks = r->nhkey + NH_KEY_SIZE;
	memset(r->msg, 0x5a, NH_LEN_MAX);
	memset(r->nhkey, 0x33, NH_KEY_SIZE);
	memset(r->polykey, 0x42, sizeof(r->polykey));
	err = nh_open(r);
	if (err) {
		nh_line(r, "skip nhpoly1305: %d\n", err);
	} else {
		nh_run_lengths(r, reps);
		nh_close(r);
	}
	len = floor_vmac_lines(buf, r->len, reps);
	kfree_sensitive(r->msg);
	kfree_sensitive(r);
	return len;
}
