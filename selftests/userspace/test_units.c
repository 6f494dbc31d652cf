// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libdiamond units: frames (including a corpus of malformed ones), the
 * stream reader's resynchronisation, the epoch assembler, the state store
 * (including corrupt and foreign files), the gateway's rule that a
 * rejected epoch changes nothing, and the host sender's group tag frames.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <diamond/libdiamond.h>

#include "tap.h"
#include "lib/files.h"

static char tmpdir[] = "/tmp/diamond-units.XXXXXX";

/* ---- helpers --------------------------------------------------------- */

static void mkframe(uint8_t *buf, uint8_t type, uint8_t suite, uint32_t dev,
		    uint64_t epoch, uint16_t idx, uint16_t len)
{
	unsigned int i;

	buf[0] = 'D';
	buf[1] = 'F';
	buf[2] = type;
	buf[3] = suite;
	for (i = 0; i < 4; i++)
		buf[4 + i] = (uint8_t)(dev >> (8 * i));
	for (i = 0; i < 8; i++)
		buf[8 + i] = (uint8_t)(epoch >> (8 * i));
	buf[16] = (uint8_t)idx;
	buf[17] = (uint8_t)(idx >> 8);
	buf[18] = (uint8_t)len;
	buf[19] = (uint8_t)(len >> 8);
	memset(buf + 20, 0xab, len);
}

/* ---- frames ---------------------------------------------------------- */

static void test_frames(void)
{
	static const struct {
		const char *name;
		uint8_t type, suite;
		uint16_t idx, len;
		uint64_t epoch;
		int expect;
	} corpus[] = {
		{ "record frame", 1, 1, 0, 16, 0, 36 },
		{ "empty record", 1, 2, 5, 0, 3, 20 },
		{ "max record", 1, 2, 0, 4096, 1, 4116 },
		{ "tag frame", 2, 1, 3, 16, 0, 36 },
		{ "tag frame with AD", 2, 2, 3, 16 + 1024, 9, 20 + 1040 },
		{ "type 0", 0, 1, 0, 4, 0, -EPROTO },
		{ "type 3 shorter than a tag", 3, 1, 0, 4, 0, -EPROTO },
		{ "group tag frame", 3, 2, 2, 16, 4, 36 },
		{ "group tag frame with AD", 3, 1, 65533, 16 + 1024, 0, 1060 },
		{ "group index 65534", 3, 1, 65534, 16, 0, -EPROTO },
		{ "suite 0", 1, 0, 0, 4, 0, -EPROTO },
		{ "suite 3", 1, 3, 0, 4, 0, -EPROTO },
		{ "record over 4096", 1, 1, 0, 4097, 0, -EPROTO },
		{ "tag shorter than 16", 2, 1, 1, 15, 0, -EPROTO },
		{ "tag with AD over 1024", 2, 1, 1, 1041, 0, -EPROTO },
		{ "tag with count 0", 2, 1, 0, 16, 0, -EPROTO },
		{ "epoch 2^64-1", 1, 1, 0, 4, UINT64_MAX, -EPROTO },
	};
	static uint8_t buf[DIAMOND_FRAME_MAX + 64], out[DIAMOND_FRAME_MAX + 64];
	struct diamond_frame f;
	size_t i;
	int n, w;

	for (i = 0; i < sizeof(corpus) / sizeof(corpus[0]); i++) {
		mkframe(buf, corpus[i].type, corpus[i].suite, 0x01020304,
			corpus[i].epoch, corpus[i].idx, corpus[i].len);
		n = diamond_frame_parse(&f, buf, 20u + corpus[i].len);
		tap_result(n == corpus[i].expect, "frame parse: %s (%d)",
			   corpus[i].name, n);
		if (n > 0) {
			w = diamond_frame_write(out, sizeof(out), &f);
			tap_result(w == n && !memcmp(out, buf, (size_t)n),
				   "frame write round trip: %s", corpus[i].name);
			tap_result(diamond_frame_parse(&f, buf, (size_t)n - 1) ==
				   -ENODATA, "truncated by one byte: %s",
				   corpus[i].name);
		}
	}
	mkframe(buf, 1, 1, 1, 0, 0, 8);
	buf[1] = 'G';
	tap_result(diamond_frame_parse(&f, buf, 28) == -EILSEQ, "bad sync");
	tap_result(diamond_frame_parse(&f, buf, 5) == -EILSEQ,
		   "bad sync in a short buffer");
	tap_result(diamond_frame_parse(&f, buf, 1) == -ENODATA,
		   "one byte of sync: more data needed");
	mkframe(buf, 1, 1, 1, 0, 0, 8);
	tap_result(diamond_frame_parse(&f, buf, 19) == -ENODATA,
		   "header cut short");
	tap_result(diamond_frame_write(out, 27, &f) == -EMSGSIZE ||
		   diamond_frame_parse(&f, buf, 28) == 28,
		   "write into a small buffer");
	diamond_frame_parse(&f, buf, 28);
	tap_result(diamond_frame_write(out, 27, &f) == -EMSGSIZE,
		   "frame write: buffer too small");
}

static void test_reader(void)
{
	struct diamond_reader *r = diamond_reader_new();
	uint8_t stream[512], *p = stream;
	struct diamond_frame f;
	size_t skipped, i, total_skipped = 0;
	int rc, frames = 0, ilseq = 0, proto = 0;

	memcpy(p, "garbage", 7);		/* 7 bytes without sync */
	p += 7;
	mkframe(p, 1, 2, 42, 7, 0, 10);		/* good */
	p += 30;
	mkframe(p, 9, 2, 42, 7, 1, 10);		/* bad type: skipped */
	p += 30;
	*p++ = 'D';				/* a lone D */
	mkframe(p, 1, 2, 42, 7, 1, 3);		/* good */
	p += 23;
	mkframe(p, 2, 2, 42, 7, 2, 16);		/* good tag */
	p += 36;
	mkframe(p, 1, 2, 42, 8, 0, 100);	/* truncated at the end */
	p += 40;

	/* Feed byte by byte: the result must not depend on chunking. */
	for (i = 0; i < (size_t)(p - stream); i++) {
		diamond_reader_feed(r, stream + i, 1);
		while ((rc = diamond_reader_next(r, &f, &skipped)) != 0) {
			if (rc == 1)
				frames++;
			else if (rc == -EILSEQ)
				ilseq++;
			else if (rc == -EPROTO)
				proto++;
			total_skipped += skipped;
		}
	}
	tap_result(frames == 3, "reader: 3 good frames among garbage (%d)", frames);
	tap_result(proto == 1, "reader: 1 malformed header reported (%d)", proto);
	tap_result(ilseq >= 1, "reader: garbage reported as resync (%d)", ilseq);
	tap_result(diamond_reader_pending(r) == 40,
		   "reader: truncated final frame left pending (%zu)",
		   diamond_reader_pending(r));
	diamond_reader_free(r);
}

/* ---- assembler ------------------------------------------------------- */

static void test_asm(void)
{
	struct diamond_asm *a = diamond_asm_new(0);
	struct diamond_epoch_body body;
	struct diamond_frame f;
	uint8_t fb[64], *buf = NULL;
	size_t cap = 0;
	uint64_t dropped = 0;
	int rc, j;

	/* Records 2, 0, 1 out of order, then the tag. */
	for (j = 2; j >= 0; j--) {
		mkframe(fb, 1, 1, 5, 3, (uint16_t)(j == 2 ? 2 : 1 - j), (uint16_t)(j + 1));
		diamond_frame_parse(&f, fb, sizeof(fb));
		rc = diamond_asm_record(a, &f, &dropped);
	}
	mkframe(fb, 2, 1, 5, 3, 3, 18);
	diamond_frame_parse(&f, fb, sizeof(fb));
	rc = diamond_asm_tag(a, &f, &buf, &cap, &body);
	tap_result(rc == 0 && body.count == 3 && body.adlen == 2 &&
		   body.ct_len == 3 * 2 + 6 + 16 && body.ct == body.ad + 2,
		   "assembler: out-of-order records assemble (%d)", rc);
	tap_result(rc == 0 && body.ct[0] == 2 && body.ct[4] == 1 &&
		   body.ct[7] == 3, "assembler: body in index order");

	/* Missing record 1. */
	mkframe(fb, 1, 1, 5, 4, 0, 4);
	diamond_frame_parse(&f, fb, sizeof(fb));
	diamond_asm_record(a, &f, &dropped);
	mkframe(fb, 1, 1, 5, 4, 2, 4);
	diamond_frame_parse(&f, fb, sizeof(fb));
	diamond_asm_record(a, &f, &dropped);
	mkframe(fb, 2, 1, 5, 4, 3, 16);
	diamond_frame_parse(&f, fb, sizeof(fb));
	tap_result(diamond_asm_tag(a, &f, &buf, &cap, &body) == -ENOMSG,
		   "assembler: missing record -> incomplete epoch");
	tap_result(!diamond_asm_pending(a, NULL), "assembler: empty after tag");

	/* Records past the count. */
	mkframe(fb, 1, 1, 5, 5, 0, 4);
	diamond_frame_parse(&f, fb, sizeof(fb));
	diamond_asm_record(a, &f, &dropped);
	mkframe(fb, 1, 1, 5, 5, 1, 4);
	diamond_frame_parse(&f, fb, sizeof(fb));
	diamond_asm_record(a, &f, &dropped);
	mkframe(fb, 2, 1, 5, 5, 1, 16);
	diamond_frame_parse(&f, fb, sizeof(fb));
	tap_result(diamond_asm_tag(a, &f, &buf, &cap, &body) == -ENOMSG,
		   "assembler: records past the count -> rejected");

	/* A newer epoch abandons the open one. */
	mkframe(fb, 1, 1, 5, 6, 0, 4);
	diamond_frame_parse(&f, fb, sizeof(fb));
	diamond_asm_record(a, &f, &dropped);
	mkframe(fb, 1, 1, 5, 7, 0, 4);
	diamond_frame_parse(&f, fb, sizeof(fb));
	rc = diamond_asm_record(a, &f, &dropped);
	tap_result(rc == 1 && dropped == 6,
		   "assembler: newer epoch abandons epoch 6 (%d)", rc);
	mkframe(fb, 2, 1, 5, 8, 1, 16);
	diamond_frame_parse(&f, fb, sizeof(fb));
	tap_result(diamond_asm_tag(a, &f, &buf, &cap, &body) == -ENOMSG,
		   "assembler: tag of an epoch without records -> incomplete");
	diamond_asm_free(a);

	/* Size cap. */
	a = diamond_asm_new(64);
	mkframe(fb, 1, 1, 5, 1, 0, 40);
	diamond_frame_parse(&f, fb, sizeof(fb));
	diamond_asm_record(a, &f, &dropped);
	mkframe(fb, 1, 1, 5, 1, 1, 40);
	diamond_frame_parse(&f, fb, sizeof(fb));
	tap_result(diamond_asm_record(a, &f, &dropped) == -EMSGSIZE,
		   "assembler: epoch over max_body -> EMSGSIZE");
	diamond_asm_free(a);
	free(buf);
}

/*
 * Issue 10 item 9: the gateway's one body cap is DIAMOND_MAX_BODY, the
 * sender's limit: a body of exactly that size assembles, one byte more does
 * not, and no other cap can be configured.
 */
static void test_one_limit(void)
{
	static uint8_t fb[DIAMOND_FRAME_MAX];
	struct diamond_gw_opts o = { .backend = DIAMOND_BACKEND_SOFTWARE,
				     .state_dir = tmpdir };
	struct diamond_asm *a = diamond_asm_new(0);
	struct diamond_epoch_body body;
	struct diamond_frame f;
	struct diamond_gw *gw;
	uint8_t *buf = NULL;
	size_t cap = 0, last;
	uint64_t dropped;
	int j, rc = 0;

	/* 255 records of 4096 B and one of @last: exactly the limit. */
	last = DIAMOND_MAX_BODY - DIAMOND_TAG_SIZE - 255 * (2 + 4096) - 2;
	for (j = 0; j < 256 && !rc; j++) {
		mkframe(fb, 1, 2, 5, 0, (uint16_t)j, j < 255 ? 4096 : (uint16_t)last);
		diamond_frame_parse(&f, fb, sizeof(fb));
		rc = diamond_asm_record(a, &f, &dropped);
	}
	mkframe(fb, 2, 2, 5, 0, 256, 16);
	diamond_frame_parse(&f, fb, sizeof(fb));
	rc = rc ? rc : diamond_asm_tag(a, &f, &buf, &cap, &body);
	tap_result(rc == 0 && body.ct_len == DIAMOND_MAX_BODY,
		   "one limit: a body of exactly DIAMOND_MAX_BODY assembles (%d)", rc);
	for (j = 0; j < 256 && !rc; j++) {
		mkframe(fb, 1, 2, 5, 1, (uint16_t)j, j < 255 ? 4096 : (uint16_t)(last + 1));
		diamond_frame_parse(&f, fb, sizeof(fb));
		rc = diamond_asm_record(a, &f, &dropped);
	}
	tap_result(rc == -EMSGSIZE, "one limit: one byte more is -EMSGSIZE (%d)", rc);
	diamond_asm_free(a);
	free(buf);
	o.max_body = 2 * DIAMOND_MAX_BODY;
	rc = diamond_gw_new(&gw, &o, NULL, NULL, 0);
	tap_result(rc == -EINVAL, "one limit: the gateway takes no other body cap (%d)", rc);
	if (!rc)
		diamond_gw_free(gw);
}

/* ---- state store ----------------------------------------------------- */

static void mkblob(uint32_t dev, uint8_t *blob, size_t *len)
{
	struct diamond_params p = { .suite = 2, .agg = 0, .b = 8,
				    .device_id = dev };
	uint8_t root[32];

	memset(root, 0x5a, sizeof(root));
	diamond_provision(root, &p, blob, len);
}

static void test_store(void)
{
	struct diamond_store *s;
	uint8_t blob[DIAMOND_BLOB_MAX], b2[DIAMOND_BLOB_MAX], file[200], f2[200];
	char dir[300], path[400], p2[440];
	size_t len, l2;
	int n, rc;

	snprintf(dir, sizeof(dir), "%s/store", tmpdir);
	tap_result(diamond_store_open(&s, dir, 0) == -ENOENT,
		   "store: missing directory without CREATE");
	rc = diamond_store_open(&s, dir, DIAMOND_STORE_CREATE | DIAMOND_STORE_LOCK);
	tap_result(rc == 0, "store: create and lock");
	if (rc)
		return;
	{
		struct diamond_store *s2;

		tap_result(diamond_store_open(&s2, dir, DIAMOND_STORE_LOCK) ==
			   -EBUSY, "store: a second gateway is refused (EBUSY)");
	}
	mkblob(11, blob, &len);
	tap_result(diamond_store_create(s, blob, len) == 0, "store: create device 11");
	tap_result(diamond_store_create(s, blob, len) == -EEXIST,
		   "store: create never overwrites");
	rc = diamond_store_load(s, 11, b2, &l2);
	tap_result(rc == 0 && l2 == len && !memcmp(blob, b2, len),
		   "store: load returns the blob");
	tap_result(diamond_store_load(s, 12, b2, &l2) == -DIAMOND_ENODEVICE,
		   "store: unknown device -> DIAMOND_ENODEVICE");
	diamond_store_path(s, 11, path, sizeof(path));
	n = file_bytes(path, file, sizeof(file));
	tap_result(n == DIAMOND_STATE_FILE_SIZE(64), "store: file size %d", n);

	/* Corruptions: every single-byte flip, truncations, extensions. */
	{
		int i, bad = 0;

		for (i = 0; i < n; i++) {
			memcpy(f2, file, (size_t)n);
			f2[i] ^= 0x01;
			put_bytes(path, f2, (size_t)n);
			rc = diamond_store_load(s, 11, b2, &l2);
			if (rc != -EUCLEAN && rc != -EXDEV)
				bad++;
		}
		tap_result(!bad, "store: all %d single-bit flips detected (%d missed)",
			   n, bad);
		for (i = 0, bad = 0; i < n; i++) {
			put_bytes(path, file, (size_t)i);
			if (diamond_store_load(s, 11, b2, &l2) != -EUCLEAN)
				bad++;
		}
		tap_result(!bad, "store: all %d truncations -> EUCLEAN (%d missed)",
			   n, bad);
		memcpy(f2, file, (size_t)n);
		f2[n] = 0;
		put_bytes(path, f2, (size_t)n + 1);
		tap_result(diamond_store_load(s, 11, b2, &l2) == -EUCLEAN,
			   "store: trailing byte -> EUCLEAN");
		put_bytes(path, (const uint8_t *)"not a state file at all, just text......", 40);
		tap_result(diamond_store_load(s, 11, b2, &l2) == -EUCLEAN,
			   "store: text file -> EUCLEAN");
	}
	/* Another device's intact file copied over. */
	mkblob(13, b2, &l2);
	diamond_store_save(s, b2, l2);
	diamond_store_path(s, 13, p2, sizeof(p2));
	rename(p2, path);
	tap_result(diamond_store_load(s, 11, b2, &l2) == -EXDEV,
		   "store: another device's state -> EXDEV");
	diamond_store_save(s, blob, len);
	rc = diamond_store_load(s, 11, b2, &l2);
	tap_result(rc == 0 && !memcmp(b2, blob, len), "store: save replaces");

	/* A stale temporary of a killed writer is removed on lock. */
	snprintf(p2, sizeof(p2), "%s.tmp.99999", path);
	put_bytes(p2, file, 10);
	diamond_store_close(s);
	diamond_store_open(&s, dir, DIAMOND_STORE_LOCK);
	tap_result(access(p2, F_OK) != 0, "store: stale temporary removed");
	diamond_store_close(s);
}

/* ---- gateway through the sender ------------------------------------- */

struct sink {
	int records, verified, rejected, frame_errs;
	int last_err;
	uint64_t last_epoch;
	char data[64][32];
};

static void rec_cb(void *arg, uint32_t dev, uint64_t epoch, uint32_t index,
		   const uint8_t *data, size_t len)
{
	struct sink *s = arg;

	(void)dev;
	(void)epoch;
	(void)index;
	if (s->records < 64 && len < 32) {
		memcpy(s->data[s->records], data, len);
		s->data[s->records][len] = 0;
	}
	s->records++;
}

static void ev_cb(void *arg, const struct diamond_event *ev)
{
	struct sink *s = arg;

	if (ev->kind == DIAMOND_EV_VERIFIED)
		s->verified++;
	else if (ev->kind == DIAMOND_EV_REJECTED)
		s->rejected++;
	else
		s->frame_errs++;
	s->last_err = ev->err;
	s->last_epoch = ev->epoch;
}

/* A tag frame (type 2) of device 21, suite 2: count @n, a junk tag. */
static size_t tag_frame(uint8_t *f, uint64_t epoch, uint16_t n)
{
	size_t i;

	memset(f, 0, DIAMOND_FRAME_HDR + 16);
	f[0] = 'D';
	f[1] = 'F';
	f[2] = 2;
	f[3] = 2;
	f[4] = 21;
	for (i = 0; i < 8; i++)
		f[8 + i] = (uint8_t)(epoch >> (8 * i));
	f[16] = (uint8_t)n;
	f[17] = (uint8_t)(n >> 8);
	f[18] = 16;
	memset(f + DIAMOND_FRAME_HDR, 0xa7, 16);
	return DIAMOND_FRAME_HDR + 16;
}

/*
 * Spec 9.2: a count out of range for the device (n > b = 8) is refused as
 * such (-EINVAL) before its epoch is compared with the state (at 3): an
 * expired or far-future epoch does not hide it.
 */
static void gateway_order(struct diamond_gw *gw, struct sink *sk)
{
	uint8_t f[DIAMOND_FRAME_HDR + 16];

	sk->last_err = 0;
	diamond_gw_feed(gw, f, tag_frame(f, 0, 9));
	tap_result(sk->last_err == -EINVAL, "gateway: count 9 > b at an "
		   "expired epoch -> EINVAL, not EKEYEXPIRED (%d)",
		   sk->last_err);
	sk->last_err = 0;
	diamond_gw_feed(gw, f, tag_frame(f, 3 + 4097 + 1, 9));
	tap_result(sk->last_err == -EINVAL, "gateway: count 9 > b past "
		   "max_skip -> EINVAL, not ERANGE (%d)", sk->last_err);
	sk->last_err = 0;
	diamond_gw_feed(gw, f, tag_frame(f, 0, 8));
	tap_result(sk->last_err == -EKEYEXPIRED, "gateway: count 8 at an "
		   "expired epoch -> EKEYEXPIRED (%d)", sk->last_err);
}

static void test_gateway(void)
{
	static uint8_t stream[65536], frame[DIAMOND_FRAME_MAX + DIAMOND_MAX_AD];
	struct diamond_gw_opts o = { .backend = DIAMOND_BACKEND_SOFTWARE };
	struct sink sk = { 0 };
	struct diamond_gw_cbs cbs = { rec_cb, ev_cb, &sk, NULL };
	struct diamond_sender *snd;
	struct diamond_store *st;
	struct diamond_gw *gw;
	uint8_t blob[DIAMOND_BLOB_MAX], before[200], after[200];
	char dir[300], bpath[400], spath[400], msg[200];
	size_t len, pos = 0, e1_start = 0, e1_end = 0;
	int n, full, i, rc, nb, na;

	snprintf(dir, sizeof(dir), "%s/gw", tmpdir);
	snprintf(bpath, sizeof(bpath), "%s/dev21.bin", tmpdir);
	mkblob(21, blob, &len);
	put_bytes(bpath, blob, len);
	diamond_store_open(&st, dir, DIAMOND_STORE_CREATE);
	diamond_store_create(st, blob, len);
	diamond_store_path(st, 21, spath, sizeof(spath));
	diamond_store_close(st);

	rc = diamond_sender_open(&snd, bpath);
	tap_result(rc == 0, "sender: open blob file");
	if (rc)
		return;
	/* Three epochs of 8, 8 and 3 records. */
	for (i = 0; i < 19; i++) {
		char rec[16];

		if (i == 8)
			e1_start = pos;
		snprintf(rec, sizeof(rec), "rec-%d", i);
		n = diamond_sender_seal(snd, (uint8_t *)rec, strlen(rec), frame, &full);
		memcpy(stream + pos, frame, (size_t)n);
		pos += (size_t)n;
		if (full) {
			n = diamond_sender_close_epoch(snd, (const uint8_t *)"ad", 2, frame);
			memcpy(stream + pos, frame, (size_t)n);
			pos += (size_t)n;
			if (i == 15)
				e1_end = pos;
		}
	}
	n = diamond_sender_close_epoch(snd, NULL, 0, frame);
	memcpy(stream + pos, frame, (size_t)n);
	pos += (size_t)n;
	{
		struct diamond_params p;
		uint8_t fb[DIAMOND_BLOB_MAX];
		int fl = file_bytes(bpath, fb, sizeof(fb));

		diamond_blob_info(fb, (size_t)fl, &p);
		tap_result(p.epoch == 3, "sender: blob file reserved epoch 3 (%llu)",
			   (unsigned long long)p.epoch);
	}
	diamond_sender_free(snd);

	o.state_dir = dir;
	rc = diamond_gw_new(&gw, &o, &cbs, msg, sizeof(msg));
	tap_result(rc == 0, "gateway: software backend starts");
	if (rc)
		return;
	/*
	 * Epoch 0, then a damaged copy of epoch 1 (one ciphertext bit), then
	 * the genuine frames. The damaged copy fails but is not given up: it
	 * may be a copy of a record whose genuine frame comes later (spec
	 * 8.1), and the genuine epoch 1 that follows is released.
	 */
	diamond_gw_feed(gw, stream, e1_start);
	{
		static uint8_t forged[65536];

		memcpy(forged, stream + e1_start, e1_end - e1_start);
		forged[DIAMOND_FRAME_HDR] ^= 1;
		nb = file_bytes(spath, before, sizeof(before));
		diamond_gw_feed(gw, forged, e1_end - e1_start);
		na = file_bytes(spath, after, sizeof(after));
		tap_result(sk.rejected == 0 && sk.verified == 1,
			   "gateway: damaged epoch 1 -> nothing released, not given up (%d, %d)",
			   sk.rejected, sk.verified);
		tap_result(nb == na && !memcmp(before, after, (size_t)nb),
			   "gateway: rejected epoch leaves the state file unchanged");
	}
	diamond_gw_feed(gw, stream + e1_start, pos - e1_start);
	diamond_gw_finish(gw);
	tap_result(sk.verified == 3 && sk.records == 19,
		   "gateway: 3 epochs, 19 records verified (%d, %d)",
		   sk.verified, sk.records);
	tap_result(!strcmp(sk.data[0], "rec-0") && !strcmp(sk.data[18], "rec-18"),
		   "gateway: records delivered in order");
	/*
	 * Replay of everything: nothing delivered; epochs 0 and 1 expired,
	 * the copy of the last verified tag a dropped duplicate.
	 */
	sk.records = 0;
	sk.rejected = 0;
	{
		struct diamond_gw_stats gs;
		uint64_t was;

		diamond_gw_stats(gw, &gs);
		was = gs.frames_dropped;
		diamond_gw_feed(gw, stream, pos);
		diamond_gw_stats(gw, &gs);
		tap_result(sk.records == 0 && sk.rejected == 2 &&
			   sk.last_err == -EKEYEXPIRED &&
			   gs.frames_dropped - was == 22,
			   "gateway: replay -> EKEYEXPIRED, all 22 frames dropped (%llu)",
			   (unsigned long long)(gs.frames_dropped - was));
	}
	gateway_order(gw, &sk);
	diamond_gw_free(gw);

	/* A corrupt state file: a clear error, not a crash. */
	file_bytes(spath, before, sizeof(before));
	before[30] ^= 0x80;
	put_bytes(spath, before, (size_t)na);
	memset(&sk, 0, sizeof(sk));
	diamond_gw_new(&gw, &o, &cbs, msg, sizeof(msg));
	diamond_gw_feed(gw, stream, pos);
	tap_result(sk.rejected == 3 && sk.last_err == -EUCLEAN && !sk.records,
		   "gateway: corrupt state -> EUCLEAN, nothing delivered");
	diamond_gw_free(gw);
}

/* ---- host sender with group tags (spec section 5.1) ------------------ */

static void test_sender_groups(void)
{
	struct diamond_params p = { .suite = 1, .agg = 1, .b = 8,
				    .device_id = 21, .group_size = 9 };
	static uint8_t frame[DIAMOND_FRAME_MAX + DIAMOND_MAX_AD];
	uint8_t root[32], blob[DIAMOND_BLOB_MAX];
	struct diamond_sender *snd;
	char path[400];
	size_t len;
	int n, full, rc;

	memset(root, 0x3c, sizeof(root));
	tap_result(diamond_provision(root, &p, blob, &len) == -EINVAL,
		   "provision: group size 9 above b = 8 -> EINVAL");
	p.group_size = 2;
	rc = diamond_provision(root, &p, blob, &len);
	p.group_size = 0;
	tap_result(rc == 0 && !diamond_blob_info(blob, len, &p) &&
		   p.group_size == 2 && blob[26] == 2 && blob[27] == 0,
		   "provision: group size 2 is the blob's le16 at 26");
	snprintf(path, sizeof(path), "%s/g2.bin", tmpdir);
	if (diamond_file_replace(path, blob, len, 0600) ||
	    diamond_sender_open(&snd, path)) {
		tap_result(0, "sender: opens a g = 2 blob");
		return;
	}
	n = diamond_sender_seal(snd, (const uint8_t *)"r0", 2, frame, &full);
	tap_result(n == 22 && diamond_sender_close_group(snd, NULL, 0, frame) == 0,
		   "sender g = 2: record 0, no group tag due");
	diamond_sender_seal(snd, (const uint8_t *)"r1", 2, frame, &full);
	tap_result(diamond_sender_seal(snd, (const uint8_t *)"r2", 2, frame,
				       &full) == -EINPROGRESS &&
		   diamond_sender_close_epoch(snd, NULL, 0, frame) ==
		   -EINPROGRESS,
		   "sender g = 2: after record 1 a seal or close before the "
		   "group tag -> EINPROGRESS");
	n = diamond_sender_close_group(snd, (const uint8_t *)"ad", 2, frame);
	tap_result(n == 20 + 2 + 16 && frame[2] == DIAMOND_FRAME_GROUP &&
		   frame[16] == 0 && frame[17] == 0 && frame[18] == 18 &&
		   !memcmp(frame + 20, "ad", 2),
		   "sender g = 2: group tag frame of group 0 (type 3, AD || G_0)");
	n = diamond_sender_seal(snd, (const uint8_t *)"r2", 2, frame, &full);
	tap_result(n == 22 && frame[16] == 2 &&
		   diamond_sender_close_epoch(snd, NULL, 0, frame) == 36 &&
		   frame[2] == DIAMOND_FRAME_TAG && frame[16] == 3,
		   "sender g = 2: record 2, then the epoch tag (n = 3)");
	diamond_sender_free(snd);
}

int main(void)
{
	tap_header();
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_frames();
	test_reader();
	test_asm();
	test_one_limit();
	test_store();
	test_gateway();
	test_sender_groups();
	tap_trailing_plan();
	if (!tap_failed) {
		char cmd[400];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd))
			tap_diag("could not remove %s", tmpdir);
	}
	return tap_finish();
}
