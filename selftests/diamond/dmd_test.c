// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Shared helpers of the diamond kernel selftests (see dmd_test.h). */
#define _GNU_SOURCE
#include "dmd_test.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <diamond/util.h>
#include "afalg.h"

const char *dmd_alg_name(unsigned int suite)
{
	return suite == DMD_SUITE_CHACHA_POLY ? DMD_ALG_SUITE2 : DMD_ALG_SUITE1;
}

const char *dmd_errname(int err)
{
	static _Thread_local char buf[16];
	static const struct {
		int e;
		const char *name;
	} map[] = {
		{ 0, "ok" },		      { EINVAL, "EINVAL" },
		{ EBADMSG, "EBADMSG" },	      { EKEYEXPIRED, "EKEYEXPIRED" },
		{ ERANGE, "ERANGE" },	      { EMSGSIZE, "EMSGSIZE" },
		{ ENOENT, "ENOENT" },	      { ENOKEY, "ENOKEY" },
		{ ENOSPC, "ENOSPC" },	      { EBUSY, "EBUSY" },
		{ ENOMEM, "ENOMEM" },	      { EPROTO, "EPROTO(bad output)" },
		{ EAFNOSUPPORT, "EAFNOSUPPORT" }, { ENAMETOOLONG, "ENAMETOOLONG" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { EIO, "EIO" },
		{ E2BIG, "E2BIG" },	      { ELIBBAD, "ELIBBAD" },
		{ ENOPROTOOPT, "ENOPROTOOPT" }, { EPERM, "EPERM" },
		{ EKEYREJECTED, "EKEYREJECTED" },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].e == -err)
			return map[i].name;
	snprintf(buf, sizeof(buf), "E%d", -err);
	return buf;
}

int dmd_rekey(int tfm, const uint8_t *blob, size_t len)
{
	int err = afalg_setkey(tfm, blob, len);

	return err ? err : afalg_setauthsize(tfm, DMD_TAG_SIZE);
}

int dmd_tfm(unsigned int suite, const uint8_t *blob, size_t len)
{
	int tfm = afalg_bind(dmd_alg_name(suite)), err;

	if (tfm < 0)
		return tfm;
	err = dmd_rekey(tfm, blob, len);
	if (err) {
		afalg_close(tfm);
		return err;
	}
	return tfm;
}

static ssize_t request(int fd, int fresh, int enc, uint64_t epoch,
		       const uint8_t *in, size_t inlen, uint32_t adlen,
		       uint8_t *out, size_t outlen)
{
	uint8_t iv[DMD_IV_SIZE];

	dmd_store64_le(iv, epoch);
	if (fresh)
		return afalg_aead_once(fd, enc, iv, sizeof(iv), adlen, in,
				       inlen, out, outlen);
	return afalg_aead_op(fd, enc, iv, sizeof(iv), adlen, in, inlen, out,
			     outlen);
}

int dmd_kseal(int fd, int fresh, uint64_t epoch, const uint8_t *ad,
	      size_t adlen, const uint8_t *pt, size_t ptlen, uint8_t *ct)
{
	size_t outlen = adlen + ptlen + DMD_TAG_SIZE;
	uint8_t *in = malloc(adlen + ptlen + 1), *out = malloc(outlen + 64);
	ssize_t n;
	int err = -ENOMEM;

	if (in && out) {
		if (adlen)
			memcpy(in, ad, adlen);
		if (ptlen)
			memcpy(in + adlen, pt, ptlen);
		memset(out, 0xa5, outlen + 64);
		n = request(fd, fresh, 1, epoch, in, adlen + ptlen,
			    (uint32_t)adlen, out, outlen);
		if (n < 0)
			err = (int)n;
		else if ((size_t)n != outlen || (adlen && memcmp(out, ad, adlen)))
			err = -EPROTO;
		else {
			memcpy(ct, out + adlen, ptlen + DMD_TAG_SIZE);
			err = 0;
		}
	}
	free(in);
	free(out);
	return err;
}

/*
 * Plaintext left in the output after a failed open: of the body bytes where
 * the genuine plaintext differs from the ciphertext (and from 0, which a
 * wiped buffer holds), count those the output holds. Chance agreement is 1
 * in 256 per byte; a leak agrees nearly everywhere, so more than half is a
 * leak.
 */
static int leaked(const uint8_t *out, const uint8_t *pt, const uint8_t *ct,
		  size_t len)
{
	size_t i, same = 0, cand = 0;

	for (i = 0; i < len; i++) {
		if (pt[i] == ct[i] || !pt[i])
			continue;
		cand++;
		same += out[i] == pt[i];
	}
	return cand >= 8 && 2 * same > cand;
}

int dmd_kopen(int fd, int fresh, uint64_t epoch, const uint8_t *ad,
	      size_t adlen, const uint8_t *ct, size_t ctlen, uint8_t *pt,
	      const uint8_t *genuine_pt, int *pt_leak)
{
	size_t outlen = adlen + (ctlen > DMD_TAG_SIZE ? ctlen - DMD_TAG_SIZE : 0);
	uint8_t *in = malloc(adlen + ctlen + 1), *out = malloc(outlen + 64);
	ssize_t n;
	int err = -ENOMEM;

	if (pt_leak)
		*pt_leak = 0;
	if (in && out) {
		if (adlen)
			memcpy(in, ad, adlen);
		if (ctlen)
			memcpy(in + adlen, ct, ctlen);
		memset(out, 0xa5, outlen + 64);
		n = request(fd, fresh, 0, epoch, in, adlen + ctlen,
			    (uint32_t)adlen, out, outlen);
		if (n < 0) {
			err = (int)n;
			if (genuine_pt && pt_leak && ctlen > DMD_TAG_SIZE)
				*pt_leak = leaked(out + adlen, genuine_pt, ct,
						  ctlen - DMD_TAG_SIZE);
		} else if ((size_t)n != outlen ||
			   (adlen && memcmp(out, ad, adlen))) {
			err = -EPROTO;
		} else {
			memcpy(pt, out + adlen, outlen - adlen);
			err = 0;
		}
	}
	free(in);
	free(out);
	return err;
}

int dmd_core_seal_at(struct dmd_state *st, uint64_t epoch, const uint8_t *ad,
		     size_t adlen, const uint8_t *pt, size_t ptlen,
		     uint8_t *ct)
{
	uint8_t r[DMD_KEY_MAX];

	if (epoch < st->epoch)
		return DMD_EEXPIRED;
	while (st->epoch < epoch) {
		dmd_epoch_update(st->suite, st->key, st->key, r);
		st->epoch++;
	}
	dmd_wipe(r, sizeof(r));
	return dmd_seal_body(st, ad, adlen, pt, ptlen, ct);
}

uint64_t dmd_seed(void)
{
	const char *s = getenv("DMD_SEED");
	struct timespec ts;

	if (s && *s)
		return strtoull(s, NULL, 0);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^
	       (uint64_t)getpid() << 32;
}

uint64_t dmd_rand(struct dmd_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint32_t dmd_rand_below(struct dmd_rng *r, uint32_t n)
{
	return n ? (uint32_t)(dmd_rand(r) % n) : 0;
}

void dmd_rand_bytes(struct dmd_rng *r, uint8_t *p, size_t n)
{
	uint64_t x = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (i % 8 == 0)
			x = dmd_rand(r);
		p[i] = (uint8_t)x;
		x >>= 8;
	}
}

size_t dmd_make_blob(struct dmd_rng *r, uint8_t *blob, unsigned int suite,
		     unsigned int agg, uint32_t b, uint64_t epoch)
{
	struct dmd_state st;

	memset(&st, 0, sizeof(st));
	st.suite = (uint8_t)suite;
	st.agg = (uint8_t)agg;
	st.b = b;
	st.device_id = (uint32_t)dmd_rand(r);
	st.epoch = epoch;
	dmd_rand_bytes(r, st.key, dmd_key_size(suite));
	dmd_blob_write(blob, &st);
	return dmd_blob_size(suite);
}

size_t dmd_rand_body(struct dmd_rng *r, uint8_t *pt, unsigned int nrec,
		     size_t maxlen)
{
	size_t pos = 0, len;
	unsigned int j;

	for (j = 0; j < nrec; j++) {
		/* favour short records, with the odd long one */
		len = dmd_rand_below(r, 4) ? dmd_rand_below(r, 40) :
					     dmd_rand_below(r, (uint32_t)maxlen + 1);
		if (len > maxlen)
			len = maxlen;
		pt[pos] = (uint8_t)len;
		pt[pos + 1] = (uint8_t)(len >> 8);
		dmd_rand_bytes(r, pt + pos + 2, len);
		pos += 2 + len;
	}
	return pos;
}

const char *dmd_vectors_path(int argc, char **argv)
{
	static const char *const where[] = {
		"/diamond/vectors/diamond.txt", "diamond.txt",
		"vectors/diamond.txt", "../../vectors/diamond.txt",
	};
	const char *env = getenv("DMD_VECTORS");
	size_t i;

	if (argc > 1)
		return argv[1];
	if (env && *env)
		return env;
	for (i = 0; i < sizeof(where) / sizeof(where[0]); i++)
		if (!access(where[i], R_OK))
			return where[i];
	return where[0];
}

int dmd_write_str(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fputs(s, f) < 0)
		err = -EIO;
	if (fclose(f))
		err = -errno;
	return err;
}

int dmd_read_str(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		err = -EIO;
	fclose(f);
	return err;
}
