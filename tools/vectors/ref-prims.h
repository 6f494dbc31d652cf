/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The reference primitives and construction pieces (ref-prims.c). */
#ifndef REF_PRIMS_H
#define REF_PRIMS_H

#include <stddef.h>
#include <stdint.h>

#define TRAILER 0x80000000u
#define GROUPF 0x40000000u	/* group trailer (spec section 5.1) */
#define GRIDF 0x20000000u	/* grid trailer (spec section 14.3) */

/* A state at the start of epoch @epoch (spec section 2's fields). */
struct state {
	int suite, agg;
	uint32_t b, dev;
	uint64_t epoch;
	uint8_t key[32];
};

size_t ksize(int suite);
void die(const char *what);
/* G(key, IV_domain)[0:len]; @domain 0 record, 1 epoch, 2 group, 3 grid. */
void stream(int suite, const uint8_t *key, int domain, uint8_t *out,
	    size_t len);
void sha256(uint8_t out[32], const uint8_t *in, size_t len);
void gf_mul(uint8_t x[16], const uint8_t y[16]);
void poly1305(uint8_t tag[16], const uint8_t key[32], const uint8_t *m,
	      size_t len);
void put_le(uint8_t *p, uint64_t v, int n);
void uh_tag(int suite, const uint8_t *hp, const uint8_t *data, size_t len,
	    uint64_t e, uint32_t idx, uint8_t tag[16]);
void agg_add(int mode, uint8_t acc[16], const uint8_t t[16]);
void slot(int suite, uint8_t *r, uint8_t hp[32], uint8_t *ks, size_t len);
void epoch_update(int suite, uint8_t *e, uint8_t *r0);
/* A version 2 blob of @st (spec section 2); returns its length. */
size_t blob2(uint8_t *b, const struct state *st, int gen, int group);

#endif
