/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Shared helpers of the diamond kernel selftests: one epoch as one AF_ALG
 * request, the portable core as the reference, errno names, a seeded PRNG.
 * Nothing here prints TAP: the counters in tap.h belong to each program.
 */
#ifndef DMD_SELFTEST_COMMON_H
#define DMD_SELFTEST_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/core.h>
#include "tap.h"
#include "afalg.h"

/* Largest epoch body a test builds: b = 16 records of 4096 bytes. */
#define DMD_T_MAX_BODY	(16 * (DMD_BODY_LEN_SIZE + DMD_MAX_RECORD))
#define DMD_T_BUF	(DMD_MAX_AD + DMD_T_MAX_BODY + 4 * DMD_TAG_SIZE)

/* The AEAD name of @suite (1 or 2). */
const char *dmd_alg_name(unsigned int suite);
/* "EBADMSG" for -EBADMSG, "ok" for 0, "E<n>" otherwise (static buffer). */
const char *dmd_errname(int err);

/* Bound tfm for @suite with @blob set and authsize 16; fd or -errno. */
int dmd_tfm(unsigned int suite, const uint8_t *blob, size_t len);
/* Re-key an existing tfm (no operation socket may be open). */
int dmd_rekey(int tfm, const uint8_t *blob, size_t len);

/*
 * Seal/open one epoch. @fd is a tfm (a fresh operation socket per call)
 * when @fresh, else an operation socket kept by the caller. Output is
 * checked for length and for the AD echo algif_aead puts in front.
 * Return 0 or -errno; -EPROTO when the kernel answered with a wrong
 * length or AD.
 */
int dmd_kseal(int fd, int fresh, uint64_t epoch, const uint8_t *ad,
	      size_t adlen, const uint8_t *pt, size_t ptlen, uint8_t *ct);
/*
 * On failure, @pt_leak (if given) receives 1 when the caller's output
 * buffer held plaintext after the call: @genuine_pt is the plaintext the
 * epoch would have opened to (NULL to skip the check).
 */
int dmd_kopen(int fd, int fresh, uint64_t epoch, const uint8_t *ad,
	      size_t adlen, const uint8_t *ct, size_t ctlen, uint8_t *pt,
	      const uint8_t *genuine_pt, int *pt_leak);

/* Core reference: seal at @epoch (>= st->epoch), advancing @st past it. */
int dmd_core_seal_at(struct dmd_state *st, uint64_t epoch, const uint8_t *ad,
		     size_t adlen, const uint8_t *pt, size_t ptlen,
		     uint8_t *ct);

/* PRNG (splitmix64); seed from $DMD_SEED or the clock, reported by caller. */
struct dmd_rng {
	uint64_t s;
};
uint64_t dmd_seed(void);
uint64_t dmd_rand(struct dmd_rng *r);
uint32_t dmd_rand_below(struct dmd_rng *r, uint32_t n);
void dmd_rand_bytes(struct dmd_rng *r, uint8_t *p, size_t n);

/* A well-formed blob with a random key; returns its length. */
size_t dmd_make_blob(struct dmd_rng *r, uint8_t *blob, unsigned int suite,
		     unsigned int agg, uint32_t b, uint64_t epoch);
/* A random plaintext body of @nrec records of at most @maxlen bytes. */
size_t dmd_rand_body(struct dmd_rng *r, uint8_t *pt, unsigned int nrec,
		     size_t maxlen);

/* Vectors file: argv[1], else $DMD_VECTORS, else the usual places. */
const char *dmd_vectors_path(int argc, char **argv);

/*
 * 1 if @suite's algorithm binds; otherwise report it as a TAP skip and
 * return 0. Inline so the skip counts in the calling program's TAP stream
 * (tap.h keeps its counters per translation unit).
 */
static inline int dmd_suite_available(unsigned int suite)
{
	int fd = afalg_bind(dmd_alg_name(suite));

	if (fd < 0) {
		tap_diag("bind %s: %s", dmd_alg_name(suite), dmd_errname(fd));
		tap_skip("algorithm not available", dmd_alg_name(suite));
		return 0;
	}
	afalg_close(fd);
	return 1;
}

/* Whether a key blob only opens (spec section 2): every encrypt is EPERM. */
static inline int dmd_key_open_only(const uint8_t *blob, size_t len)
{
	return len > DMD_BLOB_OFF_FLAGS &&
	       (blob[DMD_BLOB_OFF_FLAGS] & DMD_BLOB_FLAG_OPEN_ONLY);
}

/* Write @s to @path (a sysfs parameter, say): 0 or -errno. */
int dmd_write_str(const char *path, const char *s);
/* The first line of @path into @buf (@len bytes): 0 or -errno. */
int dmd_read_str(const char *path, char *buf, size_t len);

#endif
