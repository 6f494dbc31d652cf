// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Epoch assembler: collects the record frames of one device's epoch until
 * the tag frame, then lays them out as the epoch body the AEAD expects
 * (spec section 7). Only one epoch per device is assembled at a time:
 * devices send epochs in order, so a record of a newer epoch means the
 * older one lost its tag or records and can never verify.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define SLOT_CHUNK	256

/*
 * Record @j's distinct copies, in arrival order (spec section 8.1): a
 * damaged copy, before or after the genuine one, never replaces it.
 */
struct slot {
	uint32_t off[DLIB_COPIES];
	uint16_t len[DLIB_COPIES];
	uint8_t have;		/* copies held; 0: none yet */
};

struct diamond_asm {
	size_t max_body;
	int pending;
	uint64_t epoch;
	uint8_t suite;
	/*
	 * Slots by record index, in chunks of SLOT_CHUNK made as records
	 * arrive: a record at a high index costs one chunk, not a slot for
	 * every index below it (issue 23).
	 */
	struct slot **chunk;
	uint32_t nchunks;	/* entries in @chunk */
	uint32_t nmade;		/* chunks allocated */
	uint32_t top;		/* highest index seen + 1 */
	uint32_t nhave;		/* distinct indexes held */
	uint8_t *data;		/* record payloads, appended */
	size_t used, cap;
};

struct diamond_asm *diamond_asm_new(size_t max_body)
{
	struct diamond_asm *a = calloc(1, sizeof(*a));

	if (a)
		a->max_body = max_body ? max_body : DIAMOND_DEFAULT_MAX_BODY;
	return a;
}

/* Drop the epoch; buffers go too, so an idle device costs only *a. */
static void reset(struct diamond_asm *a)
{
	uint32_t k;

	for (k = 0; k < a->nchunks; k++)
		free(a->chunk[k]);
	free(a->chunk);
	dlib_free_secret(a->data, a->cap);
	a->chunk = NULL;
	a->data = NULL;
	a->nchunks = a->nmade = a->top = a->nhave = 0;
	a->used = a->cap = 0;
	a->pending = 0;
}

void diamond_asm_free(struct diamond_asm *a)
{
	if (!a)
		return;
	reset(a);
	free(a);
}

int diamond_asm_pending(const struct diamond_asm *a, uint64_t *epoch)
{
	if (a->pending && epoch)
		*epoch = a->epoch;
	return a->pending;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *np;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	np = realloc(*p, n * elem);
	if (!np)
		return -ENOMEM;
	memset((uint8_t *)np + *cap * elem, 0, (n - *cap) * elem);
	*p = np;
	*cap = n;
	return 0;
}

/* The slot of record @j, or NULL if its chunk was never made. */
static struct slot *slot_at(const struct diamond_asm *a, uint32_t j)
{
	struct slot *c = j / SLOT_CHUNK < a->nchunks ?
			 a->chunk[j / SLOT_CHUNK] : NULL;

	return c ? &c[j % SLOT_CHUNK] : NULL;
}

/*
 * The bytes of copy @c of record @j. An assembler that holds only empty
 * records has no buffer at all: then NULL, never NULL + 0 (undefined in C).
 */
static uint8_t *payload(const struct diamond_asm *a, uint32_t j,
			unsigned int c)
{
	return a->data ? a->data + slot_at(a, j)->off[c] : NULL;
}

/* Is @f's payload one of the copies @sl holds already? */
static int held(const struct diamond_asm *a, const struct slot *sl,
		const struct diamond_frame *f)
{
	unsigned int c;

	for (c = 0; c < sl->have; c++)
		if (sl->len[c] == f->len &&
		    (!f->len || !memcmp(a->data + sl->off[c], f->payload,
					f->len)))
			return 1;
	return 0;
}

/* Copy @len bytes; with none, touch neither pointer (either may be NULL). */
static void copy(void *dst, const void *src, size_t len)
{
	if (len)
		memcpy(dst, src, len);
}

/* The slot of record @j, its chunk made if need be; NULL: no memory. */
static struct slot *slot_make(struct diamond_asm *a, uint32_t j)
{
	size_t n = a->nchunks;
	uint32_t k = j / SLOT_CHUNK;

	if (grow((void **)&a->chunk, &n, (size_t)k + 1, sizeof(*a->chunk)))
		return NULL;
	a->nchunks = (uint32_t)n;
	if (!a->chunk[k]) {
		a->chunk[k] = calloc(SLOT_CHUNK, sizeof(**a->chunk));
		if (!a->chunk[k])
			return NULL;
		a->nmade++;
	}
	return slot_at(a, j);
}

/* Body size so far, as if the records up to top were all present. */
static size_t body_size(const struct diamond_asm *a, size_t extra)
{
	return a->used + extra + (size_t)(a->top + 1) * DMD_BODY_LEN_SIZE +
	       DIAMOND_TAG_SIZE;
}

int diamond_asm_record(struct diamond_asm *a, const struct diamond_frame *f,
		       uint64_t *dropped)
{
	struct slot *sl;
	size_t cap;
	int ret = 0;
	uint8_t *nd;

	if (a->pending && f->epoch < a->epoch)
		return 0;	/* a straggler of an abandoned epoch */
	if (a->pending && f->epoch > a->epoch) {
		*dropped = a->epoch;
		reset(a);
		ret = 1;
	}
	if (!a->pending) {
		a->pending = 1;
		a->epoch = f->epoch;
		a->suite = f->suite;
	}
	if (body_size(a, f->len) > a->max_body) {
		*dropped = a->epoch;
		reset(a);
		return -EMSGSIZE;
	}
	sl = slot_make(a, f->index);
	if (!sl)
		return -ENOMEM;
	/* A repeat, or a copy past the bound: dropped (spec 8.1). */
	if (held(a, sl, f) || sl->have == DLIB_COPIES)
		return ret;
	if (a->used + f->len > a->cap) {
		cap = a->cap ? a->cap : 256;
		while (cap < a->used + f->len)
			cap *= 2;
		nd = malloc(cap);
		if (!nd)
			return -ENOMEM;
		copy(nd, a->data, a->used);
		dlib_free_secret(a->data, a->cap);
		a->data = nd;
		a->cap = cap;
	}
	if (f->len)	/* a->data may still be NULL */
		memcpy(a->data + a->used, f->payload, f->len);
	if (!sl->have)
		a->nhave++;
	sl->off[sl->have] = (uint32_t)a->used;
	sl->len[sl->have] = f->len;
	sl->have++;
	a->used += f->len;
	if ((uint32_t)f->index + 1 > a->top)
		a->top = (uint32_t)f->index + 1;
	return ret;
}

int dlib_asm_complete(const struct diamond_asm *a, uint32_t n)
{
	return a->pending && a->top == n && a->nhave == n;
}

size_t dlib_asm_footprint(const struct diamond_asm *a)
{
	return sizeof(*a) + (size_t)a->nchunks * sizeof(*a->chunk) +
	       (size_t)a->nmade * SLOT_CHUNK * sizeof(**a->chunk) + a->cap;
}

int dlib_asm_frames(const struct diamond_asm *a, uint32_t device_id,
			int (*emit)(void *arg, const struct diamond_frame *f),
			void *arg)
{
	struct diamond_frame f = {
		.type = DIAMOND_FRAME_RECORD, .suite = a->suite,
		.device_id = device_id, .epoch = a->epoch,
	};
	const struct slot *sl;
	unsigned int c;
	uint32_t j;
	int rc;

	for (j = 0; a->pending && j < a->top; j++) {
		sl = slot_at(a, j);
		if (!sl) {	/* a chunk never made: skip all of it */
			j = (j / SLOT_CHUNK + 1) * SLOT_CHUNK - 1;
			continue;
		}
		for (c = 0; c < sl->have; c++) {	/* every copy held */
			f.index = (uint16_t)j;
			f.len = sl->len[c];
			f.payload = payload(a, j, c);
			rc = emit(arg, &f);
			if (rc)
				return rc;
		}
	}
	return 0;
}

int diamond_asm_tag(struct diamond_asm *a, const struct diamond_frame *f,
		    uint8_t **buf, size_t *cap, struct diamond_epoch_body *body)
{
	/* Pick 1: every record's latest copy, as this API always did. */
	int rc = dlib_asm_assemble(a, f, 1, buf, cap, body);

	reset(a);
	return rc;
}

int dlib_asm_has(const struct diamond_asm *a, uint32_t first,
		     uint32_t count)
{
	uint32_t j;

	if (!count)
		return 1;	/* an empty final group */
	if (!a->pending)
		return 0;
	for (j = first; j < first + count; j++)
		if (!slot_at(a, j) || !slot_at(a, j)->have)
			return 0;
	return 1;
}

uint32_t dlib_asm_top(const struct diamond_asm *a)
{
	return a->pending ? a->top : 0;
}

unsigned int dlib_asm_picks(const struct diamond_asm *a, uint32_t first,
			    uint32_t count)
{
	unsigned int n = 1;
	uint32_t j;

	if (!dlib_asm_has(a, first, count))
		return 0;
	for (j = first; j < first + count && n <= DLIB_TRIES; j++)
		n *= slot_at(a, j)->have;
	return n;
}

/*
 * The copy of record @j that @pick takes. Pick 0 takes every record's
 * first copy and pick 1 every record's last, the two an attacker who
 * repeats frames leaves most likely genuine; pick p >= 2 reads *@rest
 * (p - 1 at the first record) as a number whose digits count back from
 * each record's last copy, the lowest record first, and consumes the
 * digit of @j. Picks 0 .. dlib_asm_picks() - 1 take every way once.
 */
static unsigned int pick_copy(const struct diamond_asm *a, uint32_t j,
			      unsigned int pick, unsigned int *rest)
{
	unsigned int have = slot_at(a, j)->have, digit = *rest % have;

	if (!pick)
		return 0;
	*rest /= have;
	return have - 1 - digit;
}

int dlib_asm_range(const struct diamond_asm *a, uint32_t first,
		       uint32_t count, unsigned int pick, const uint8_t *tag,
		       size_t taglen, uint8_t **buf, size_t *cap,
		       struct diamond_epoch_body *body)
{
	uint8_t *out;
	size_t adlen = taglen - DIAMOND_TAG_SIZE, need = adlen, pos;
	unsigned int c, rest = pick ? pick - 1 : 0, r2 = rest;
	uint16_t len;
	uint32_t j;

	if (!dlib_asm_has(a, first, count))
		return -ENOMSG;
	for (j = first; j < first + count; j++)
		need += DMD_BODY_LEN_SIZE +
			slot_at(a, j)->len[pick_copy(a, j, pick, &r2)];
	need += DIAMOND_TAG_SIZE;
	if (need - adlen > a->max_body)
		return -EMSGSIZE;
	if (need > *cap) {
		free(*buf);	/* ciphertext only: nothing to wipe */
		*buf = malloc(need);
		*cap = *buf ? need : 0;
		if (!*buf)
			return -ENOMEM;
	}
	out = *buf;
	/* out = AD || body || T: the layout an AF_ALG AEAD request takes. */
	memcpy(out, tag, adlen);
	pos = adlen;
	for (j = first; j < first + count; j++) {
		c = pick_copy(a, j, pick, &rest);
		len = slot_at(a, j)->len[c];
		out[pos] = (uint8_t)len;
		out[pos + 1] = (uint8_t)(len >> 8);
		copy(out + pos + 2, payload(a, j, c), len);
		pos += DMD_BODY_LEN_SIZE + len;
	}
	memcpy(out + pos, tag + adlen, DIAMOND_TAG_SIZE);
	body->suite = a->suite;
	body->epoch = a->epoch;
	body->count = count;
	body->ad = out;
	body->adlen = adlen;
	body->ct = out + adlen;
	body->ct_len = need - adlen;
	return 0;
}

int dlib_asm_assemble(const struct diamond_asm *a,
			  const struct diamond_frame *f, unsigned int pick,
			  uint8_t **buf, size_t *cap,
			  struct diamond_epoch_body *body)
{
	int rc;

	/* Nothing, another epoch, records missing or records past n. */
	if (a->epoch != f->epoch || !dlib_asm_complete(a, f->index))
		return -ENOMSG;
	rc = dlib_asm_range(a, 0, f->index, pick, f->payload, f->len, buf,
			    cap, body);
	if (!rc) {
		body->device_id = f->device_id;
		body->suite = f->suite;
	}
	return rc;
}
