// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * lossy-link: one device's frames (spec section 8) through a lossy link
 * into a gateway, with the portable core on both ends, to measure how many
 * records group tags (spec section 5.1) deliver.
 *
 * The link, per frame, with a seeded generator: dropped with probability
 * --loss; otherwise one random bit flipped with --corrupt, delayed by 1 to
 * --depth frames with --reorder, and sent once more (delayed likewise) with
 * --dup. The gateway parses every arriving frame with dmd_frame_parse(),
 * files it by (epoch, index), and opens units (groups, then the final
 * group) in order with the group receiver (dmd_receiver_*). It waits for an
 * incomplete or failing unit until --horizon frames have arrived after the
 * first frame of a later unit, then gives it up (spec section 9.1).
 *
 *   lossy-link [options]          one run: a line of figures
 *   lossy-link --table [options]  the table of Documentation/performance.md
 *   lossy-link --filter [options] the link alone: frames on stdin (any
 *                                 sender's, e.g. diamondctl seal) go out
 *                                 on stdout as the link delivers them, for
 *                                 a real gateway to open; bytes between
 *                                 frames are not passed on; --burst L
 *                                 makes the loss bursty as below
 *
 *   lossy-link --packets [options] packet mode (spec section 14): packets
 *                                 on stdin, each after a 1-byte length
 *                                 (diamondctl seal --packet), dropped
 *                                 with probability --loss, independently
 *                                 (Bernoulli) or, with --burst L > 0, in
 *                                 bursts of mean length L (Gilbert-Elliott:
 *                                 everything lost in the bad state, nothing
 *                                 in the good one, P(bad -> good) = 1/L,
 *                                 P(good -> bad) = loss / (L (1 - loss)),
 *                                 so the long-run loss is --loss); the
 *                                 rest go to stdout as they came. A
 *                                 length of 0 (a firmware's idle link,
 *                                 embedded.rst) is passed on, not counted
 *                                 as a packet and never dropped. The seed
 *                                 and the counts go to stderr, and with
 *                                 --drop-log FILE the ordinal (from 0) of
 *                                 every dropped packet, one a line.
 *
 * Options: --suite S --b B --g G --len L --ad A --epochs N --seed X
 *          --loss P --corrupt P --reorder P --dup P --depth D --horizon H
 *          --tag-copies R (each tag frame sent R times)
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/core.h>
#include <diamond/frame.h>

#define WIN 4			/* epochs the gateway files frames for */
#define FRAME_MAX (DMD_FRAME_HDR + 0xffff)	/* the length field's range */

struct config {
	unsigned int suite;
	uint32_t b, g, len, adlen, epochs, depth, horizon, tag_copies, burst;
	const char *drop_log;
	double loss, corrupt, reorder, dup;
	uint64_t seed;
};

struct result {
	uint64_t sent, delivered, units, units_ok, bad_tags, air_bytes;
	uint64_t frames_sent, frames_arrived, frames_unparsed;
};

/* ---- the link ---- */

static uint64_t rng;

static uint64_t next_rand(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static double uniform(void)
{
	return (double)(next_rand() >> 11) / 9007199254740992.0;
}

struct copy {
	uint8_t *buf;
	size_t len;
};

/* Frames in flight: bucket t % (depth + 1) arrives at time t. */
struct link {
	struct copy *slot[64];
	size_t n[64], cap[64];
	uint32_t buckets;
};

static void link_put(struct link *l, uint64_t at, const uint8_t *f,
		     size_t len)
{
	uint32_t k = (uint32_t)(at % l->buckets);

	if (l->n[k] == l->cap[k]) {
		l->cap[k] = l->cap[k] ? 2 * l->cap[k] : 8;
		l->slot[k] = realloc(l->slot[k], l->cap[k] * sizeof(struct copy));
		if (!l->slot[k])
			abort();
	}
	l->slot[k][l->n[k]].buf = malloc(len);
	if (!l->slot[k][l->n[k]].buf)
		abort();
	memcpy(l->slot[k][l->n[k]].buf, f, len);
	l->slot[k][l->n[k]++].len = len;
}

static void link_send(struct link *l, const struct config *c, uint64_t now,
		      const uint8_t *f, size_t len)
{
	uint8_t tmp[FRAME_MAX];
	uint64_t at = now;
	size_t bit;

	if (uniform() < c->loss)
		return;
	memcpy(tmp, f, len);
	if (uniform() < c->corrupt) {
		bit = (size_t)(next_rand() % (len * 8));
		tmp[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	if (c->depth && uniform() < c->reorder)
		at += 1 + next_rand() % c->depth;
	link_put(l, at, tmp, len);
	if (c->depth && uniform() < c->dup)
		link_put(l, now + 1 + next_rand() % c->depth, tmp, len);
}

/* ---- the gateway ---- */

struct held {
	uint8_t *p;	/* a copy of the frame's payload */
	uint16_t len;
	uint8_t have, fresh;	/* fresh: changed since the last attempt */
};

struct epoch_store {
	uint64_t epoch;
	uint8_t used;
	uint16_t n;		/* from the epoch tag frame; 0 unknown */
	struct held *rec;	/* b */
	struct held *gtag;	/* (b - 1) / g non-final groups */
	struct held fin;
};

struct gateway {
	const struct config *c;
	struct dmd_receiver rx;
	struct epoch_store ep[WIN];
	uint32_t q;		/* non-final groups of a full epoch */
	uint64_t cur_epoch;	/* the unit the gateway decides next */
	uint32_t cur_unit;
	uint64_t max_pos;	/* the latest unit a frame arrived for */
	uint64_t *reach;	/* arrival time max_pos first passed a unit */
	uint64_t now;
	uint8_t *body, *pt;
	struct result *res;
};

static uint64_t unit_pos(const struct gateway *gw, uint64_t e, uint32_t u)
{
	return e * (gw->q + 1) + u;
}

static struct epoch_store *store_for(struct gateway *gw, uint64_t e)
{
	struct epoch_store *s = &gw->ep[e % WIN];
	uint32_t i;

	if (e < gw->cur_epoch || e >= gw->cur_epoch + WIN)
		return NULL;
	if (!s->used || s->epoch != e) {
		for (i = 0; i < gw->c->b; i++)
			s->rec[i].have = 0;
		for (i = 0; i < gw->q; i++)
			s->gtag[i].have = 0;
		s->fin.have = 0;
		s->n = 0;
		s->epoch = e;
		s->used = 1;
	}
	return s;
}

/*
 * Keep the first copy of a frame; a different copy replaces it only once
 * the unit has been tried with the first one (which then failed).
 */
static void hold(struct held *h, const uint8_t *p, uint16_t len)
{
	if (h->have && (h->fresh || (h->len == len && !memcmp(h->p, p, len))))
		return;
	memcpy(h->p, p, len);
	h->len = len;
	h->have = 1;
	h->fresh = 1;
}

static void see_unit(struct gateway *gw, uint64_t e, uint32_t u)
{
	uint64_t pos = unit_pos(gw, e, u), p;

	for (p = gw->max_pos + 1; p <= pos; p++)
		gw->reach[p % (WIN * (gw->q + 1))] = gw->now;
	if (pos > gw->max_pos)
		gw->max_pos = pos;
}

static void file_frame(struct gateway *gw, const uint8_t *buf, size_t len)
{
	const struct config *c = gw->c;
	struct epoch_store *s;
	struct dmd_frame f;
	uint32_t u;

	if (dmd_frame_parse(&f, buf, len) != (int)len ||
	    f.suite != c->suite || f.device_id != 1) {
		gw->res->frames_unparsed++;
		return;
	}
	s = store_for(gw, f.epoch);
	if (!s)
		return;		/* decided already, or too far ahead */
	if (f.type == DMD_FRAME_RECORD && f.index < c->b) {
		hold(&s->rec[f.index], f.payload, f.len);
		u = f.index / c->g;
	} else if (f.type == DMD_FRAME_GROUP && f.index < gw->q) {
		hold(&s->gtag[f.index], f.payload, f.len);
		u = f.index;
	} else if (f.type == DMD_FRAME_TAG && f.index <= c->b) {
		hold(&s->fin, f.payload, f.len);
		s->n = f.index;
		u = gw->q;
	} else {
		return;
	}
	see_unit(gw, f.epoch, u < gw->q ? u : gw->q);
}

/* Records first .. first + count - 1 as a body, then the tag's 16 bytes. */
static int assemble(struct gateway *gw, struct epoch_store *s,
		    uint32_t first, uint32_t count, const struct held *tag,
		    size_t *ct_len, int *fresh)
{
	size_t pos = 0;
	uint32_t j;

	if (!tag->have || tag->len < DMD_TAG_SIZE)
		return 0;
	*fresh = tag->fresh;
	for (j = first; j < first + count; j++) {
		if (!s->rec[j].have)
			return 0;
		*fresh |= s->rec[j].fresh;
		gw->body[pos] = (uint8_t)s->rec[j].len;
		gw->body[pos + 1] = (uint8_t)(s->rec[j].len >> 8);
		memcpy(gw->body + pos + 2, s->rec[j].p, s->rec[j].len);
		pos += 2 + s->rec[j].len;
	}
	memcpy(gw->body + pos, tag->p + tag->len - DMD_TAG_SIZE, DMD_TAG_SIZE);
	*ct_len = pos + DMD_TAG_SIZE;
	return 1;
}

static void mark_tried(struct epoch_store *s, uint32_t first, uint32_t count,
		       struct held *tag)
{
	uint32_t j;

	tag->fresh = 0;
	for (j = first; j < first + count; j++)
		s->rec[j].fresh = 0;
}

/*
 * Try the current unit: 1 if it is decided (opened or given up), 0 if the
 * gateway must wait for more frames.
 */
static int try_unit(struct gateway *gw, int flush)
{
	const struct config *c = gw->c;
	struct epoch_store *s = store_for(gw, gw->cur_epoch);
	uint32_t u = gw->cur_unit, first, count, n;
	uint64_t pos = unit_pos(gw, gw->cur_epoch, u);
	struct held *tag;
	size_t ct_len;
	int fresh, rc = 1;

	if (u < gw->q) {
		first = u * c->g;
		count = c->g;
		tag = &s->gtag[u];
		n = 0;
	} else {
		n = s->n ? s->n : c->b;
		first = gw->q * c->g;
		count = n > first ? n - first : 0;
		tag = &s->fin;
	}
	if (assemble(gw, s, first, count, tag, &ct_len, &fresh) && fresh) {
		mark_tried(s, first, count, tag);
		if (n)
			rc = dmd_receiver_close(&gw->rx, gw->cur_epoch, n,
						tag->p, tag->len - DMD_TAG_SIZE,
						gw->body, ct_len, gw->pt);
		else
			rc = dmd_receiver_group(&gw->rx, gw->cur_epoch, u,
						tag->p, tag->len - DMD_TAG_SIZE,
						gw->body, ct_len, gw->pt);
		if (rc == DMD_OK)
			gw->res->delivered += count;
		else
			gw->res->bad_tags++;
	}
	if (rc != DMD_OK && !flush &&
	    (gw->max_pos <= pos ||
	     gw->now - gw->reach[(pos + 1) % (WIN * (gw->q + 1))] <
		     c->horizon))
		return 0;
	gw->res->units++;
	gw->res->units_ok += rc == DMD_OK;
	if (++gw->cur_unit > gw->q) {
		s->used = 0;
		gw->cur_unit = 0;
		gw->cur_epoch++;
	}
	return 1;
}

static void progress(struct gateway *gw, int flush)
{
	while (gw->cur_epoch < gw->c->epochs && try_unit(gw, flush))
		;
}

static struct held *held_array(size_t n, size_t size)
{
	struct held *h = calloc(n ? n : 1, sizeof(*h));
	size_t i;

	for (i = 0; h && i < n; i++)
		if (!(h[i].p = malloc(size)))
			return NULL;
	if (!h)
		abort();
	return h;
}

static void gateway_init(struct gateway *gw, const struct config *c,
			 const struct dmd_state *st, struct result *res)
{
	size_t i, tagmax = DMD_MAX_AD + DMD_TAG_SIZE;

	memset(gw, 0, sizeof(*gw));
	gw->c = c;
	gw->res = res;
	gw->q = (c->b - 1) / c->g;
	dmd_receiver_init(&gw->rx, st, c->g, DMD_DEFAULT_MAX_SKIP);
	for (i = 0; i < WIN; i++) {
		gw->ep[i].rec = held_array(c->b, DMD_MAX_RECORD);
		gw->ep[i].gtag = held_array(gw->q, tagmax);
		gw->ep[i].fin.p = malloc(tagmax);
	}
	gw->reach = calloc(WIN * (gw->q + 1), sizeof(uint64_t));
	gw->body = malloc((size_t)c->g * (2 + DMD_MAX_RECORD) + 2 * tagmax +
			  (size_t)c->b * (2 + c->len));
	gw->pt = malloc((size_t)c->b * (2 + DMD_MAX_RECORD));
	if (!gw->reach || !gw->body || !gw->pt)
		abort();
}

static void gateway_free(struct gateway *gw)
{
	size_t i, j;

	for (i = 0; i < WIN; i++) {
		for (j = 0; j < gw->c->b; j++)
			free(gw->ep[i].rec[j].p);
		for (j = 0; j < gw->q; j++)
			free(gw->ep[i].gtag[j].p);
		free(gw->ep[i].rec);
		free(gw->ep[i].gtag);
		free(gw->ep[i].fin.p);
	}
	free(gw->reach);
	free(gw->body);
	free(gw->pt);
	dmd_receiver_wipe(&gw->rx);
}

/* ---- one run ---- */

/* Deliver what arrives at @t, then let the gateway decide. */
static void tick(struct link *l, struct gateway *gw, uint64_t t)
{
	uint32_t k = (uint32_t)(t % l->buckets);
	size_t i;

	for (i = 0; i < l->n[k]; i++) {
		gw->now++;
		gw->res->frames_arrived++;
		file_frame(gw, l->slot[k][i].buf, l->slot[k][i].len);
		free(l->slot[k][i].buf);
		progress(gw, 0);
	}
	l->n[k] = 0;
}

static void emit(struct link *l, struct gateway *gw, uint64_t *t,
		 const struct dmd_frame *f, unsigned int copies)
{
	uint8_t buf[FRAME_MAX];
	int len = dmd_frame_write(buf, sizeof(buf), f);

	if (len <= 0)
		abort();
	while (copies--) {
		gw->res->air_bytes += (uint64_t)len;
		gw->res->frames_sent++;
		link_send(l, gw->c, *t, buf, (size_t)len);
		tick(l, gw, (*t)++);
	}
}

/* Close the group (or with @final the epoch) and send its tag frame. */
static int emit_tag(struct link *l, struct gateway *gw, uint64_t *t,
		    struct dmd_sender *s, struct dmd_frame *f,
		    uint8_t *payload, int final)
{
	uint32_t adlen = gw->c->adlen, idx;
	int rc;

	memset(payload, 0xad, adlen);	/* the AD */
	rc = final ? dmd_sender_close(s, payload, adlen, payload + adlen, &idx) :
		     dmd_sender_close_group(s, payload, adlen,
					    payload + adlen, &idx);
	f->type = final ? DMD_FRAME_TAG : DMD_FRAME_GROUP;
	f->index = (uint16_t)idx;
	f->len = (uint16_t)(adlen + DMD_TAG_SIZE);
	f->payload = payload;
	if (!rc)
		emit(l, gw, t, f, gw->c->tag_copies);
	return rc;
}

static int run(const struct config *c, struct result *res)
{
	static const uint8_t root[DMD_ROOT_SIZE] = { 1, 2, 3 };
	struct dmd_state st = { .suite = (uint8_t)c->suite, .b = c->b,
				.device_id = 1 };
	struct link l = { .buckets = c->depth + 1 };
	struct dmd_sender s;
	struct gateway gw;
	struct dmd_frame f = { .suite = (uint8_t)c->suite, .device_id = 1 };
	uint8_t m[DMD_MAX_RECORD], payload[DMD_MAX_AD + DMD_MAX_RECORD];
	uint64_t t = 0, e, k;
	uint32_t j, idx;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	rng = c->seed * 0x9e3779b97f4a7c15ull + 1;
	if (dmd_derive_initial(&st, root) ||
	    dmd_sender_init_groups(&s, &st, NULL, 0, 0, c->g))
		return 1;
	gateway_init(&gw, c, &st, res);
	for (e = 0; !rc && e < c->epochs; e++) {
		rc = dmd_sender_begin(&s, NULL);
		f.epoch = e;
		for (j = 0; !rc && j < c->b; j++) {
			memset(m, (int)j, c->len);
			rc = dmd_sender_seal(&s, m, c->len, payload, &idx);
			f.type = DMD_FRAME_RECORD;
			f.index = (uint16_t)idx;
			f.len = (uint16_t)c->len;
			f.payload = payload;
			emit(&l, &gw, &t, &f, 1);
			res->sent++;
			if (!rc && dmd_sender_group_due(&s))
				rc = emit_tag(&l, &gw, &t, &s, &f, payload, 0);
		}
		if (!rc)
			rc = emit_tag(&l, &gw, &t, &s, &f, payload, 1);
	}
	for (k = 0; k <= c->depth; k++)
		tick(&l, &gw, t++);
	progress(&gw, 1);
	gateway_free(&gw);
	dmd_sender_wipe(&s);
	for (k = 0; k < l.buckets; k++)
		free(l.slot[k]);
	return rc;
}

/* ---- the link alone (--filter) ---- */

/*
 * One frame's or packet's fate with --burst (Gilbert-Elliott) or without
 * (Bernoulli): 1 lost. @bad is the Gilbert-Elliott state.
 */
static int packet_lost(const struct config *c, int *bad)
{
	double r, q;

	if (!c->burst)
		return uniform() < c->loss;
	r = 1.0 / c->burst;
	q = c->loss < 1 ? c->loss * r / (1 - c->loss) : 1;
	*bad = *bad ? uniform() >= r : uniform() < q;
	return *bad;
}

/* Write what arrives at @t to @out; count the frames in *@n. */
static void pass_on(struct link *l, uint64_t t, FILE *out, uint64_t *n)
{
	uint32_t k = (uint32_t)(t % l->buckets);
	size_t i;

	for (i = 0; i < l->n[k]; i++) {
		fwrite(l->slot[k][i].buf, 1, l->slot[k][i].len, out);
		free(l->slot[k][i].buf);
		(*n)++;
	}
	l->n[k] = 0;
}

static uint8_t *read_all(FILE *in, size_t *len)
{
	size_t cap = 1 << 16, n = 0, got;
	uint8_t *buf = malloc(cap), *more;

	while (buf && (got = fread(buf + n, 1, cap - n, in)) > 0) {
		n += got;
		if (n == cap) {
			more = realloc(buf, cap *= 2);
			if (!more)
				free(buf);
			buf = more;
		}
	}
	*len = n;
	return buf;
}

static int filter(const struct config *c)
{
	struct link l = { .buckets = c->depth + 1 };
	uint64_t t = 0, k, in = 0, out = 0;
	size_t len, at = 0, skipped, other = 0;
	uint8_t *buf = read_all(stdin, &len);
	struct dmd_frame f;
	struct config lc = *c;
	char burst[48] = "";
	int rc, bad;

	if (!buf || ferror(stdin)) {
		fprintf(stderr, "lossy-link: cannot read the frames on stdin\n");
		return 1;
	}
	rng = c->seed * 0x9e3779b97f4a7c15ull + 1;
	/* With --burst the loss is Gilbert-Elliott's, decided here; the link
	 * then only damages, delays and duplicates. */
	bad = c->burst && uniform() < c->loss;	/* the stationary state */
	if (c->burst)
		lc.loss = 0;
	while ((rc = dmd_frame_next(&f, buf + at, len - at, &skipped)) > 0) {
		other += skipped;
		at += skipped;
		if (!c->burst || !packet_lost(c, &bad))
			link_send(&l, &lc, t, buf + at, (size_t)rc);
		pass_on(&l, t++, stdout, &out);
		at += (size_t)rc;
		in++;
	}
	for (k = 0; k <= c->depth; k++)
		pass_on(&l, t++, stdout, &out);
	for (k = 0; k < l.buckets; k++)
		free(l.slot[k]);
	free(buf);
	if (c->burst)
		snprintf(burst, sizeof(burst), " Gilbert-Elliott mean burst %u",
			 c->burst);
	fprintf(stderr, "lossy-link: %llu frames in, %llu out (seed %llu, "
		"loss %g%s, corrupt %g, reorder %g, dup %g); %zu other bytes "
		"not passed on\n", (unsigned long long)in,
		(unsigned long long)out, (unsigned long long)c->seed, c->loss,
		burst, c->corrupt, c->reorder, c->dup, other + (len - at));
	return fflush(stdout) ? 1 : 0;
}

/* ---- packet mode (--packets) ---- */

static int packets(const struct config *c)
{
	uint64_t in = 0, out = 0;
	FILE *log = NULL;
	uint8_t pkt[256];
	int len, bad;

	if (c->drop_log && !(log = fopen(c->drop_log, "w"))) {
		perror(c->drop_log);
		return 1;
	}
	rng = c->seed * 0x9e3779b97f4a7c15ull + 1;
	bad = c->burst && uniform() < c->loss;	/* the stationary state */
	while ((len = getchar()) != EOF) {
		/* Length 0 is the idle link, not a packet (embedded.rst). */
		if (!len) {
			putchar(0);
			continue;
		}
		pkt[0] = (uint8_t)len;
		if (fread(pkt + 1, 1, (size_t)len, stdin) != (size_t)len)
			break;	/* cut short: not a packet */
		if (packet_lost(c, &bad)) {
			if (log)
				fprintf(log, "%llu\n", (unsigned long long)in);
		} else {
			fwrite(pkt, 1, (size_t)len + 1, stdout);
			out++;
		}
		in++;
	}
	if (log)
		fclose(log);
	fprintf(stderr, "lossy-link: seed %llu, %s loss %g", (unsigned long long)
		c->seed, c->burst ? "Gilbert-Elliott" : "Bernoulli", c->loss);
	if (c->burst)
		fprintf(stderr, ", mean burst %u", c->burst);
	fprintf(stderr, ": %llu packets in, %llu out\n",
		(unsigned long long)in, (unsigned long long)out);
	return fflush(stdout) ? 1 : 0;
}

/* ---- command line ---- */

static double ideal(double p, uint32_t g, unsigned int copies)
{
	return pow(1 - p, g) * (1 - pow(p, copies));
}

static void print_run(const struct config *c, const struct result *r)
{
	printf("suite %u b %u g %u len %u ad %u epochs %u seed %llu loss %g "
	       "corrupt %g reorder %g dup %g depth %u horizon %u tag-copies %u: "
	       "delivered %llu/%llu = %.2f%% (ideal %.2f%%), units %llu/%llu, "
	       "failed tags %llu, %.2f bytes/record on the air\n",
	       c->suite, c->b, c->g, c->len, c->adlen, c->epochs,
	       (unsigned long long)c->seed, c->loss, c->corrupt, c->reorder,
	       c->dup, c->depth, c->horizon, c->tag_copies,
	       (unsigned long long)r->delivered, (unsigned long long)r->sent,
	       100.0 * (double)r->delivered / (double)r->sent,
	       100.0 * ideal(c->loss, c->g, c->tag_copies),
	       (unsigned long long)r->units_ok, (unsigned long long)r->units,
	       (unsigned long long)r->bad_tags,
	       (double)r->air_bytes / (double)r->sent);
}

static int table(struct config c)
{
	static const double ps[] = { 0, 0.001, 0.01, 0.05 };
	static const uint32_t gs[] = { 1024, 64, 16 };
	struct result r;
	size_t i, j;

	printf("| loss p | g | delivered | ideal (1-p)^g | "
	       "ideal with the tag frame | bytes/record |\n"
	       "|---|---|---|---|---|---|\n");
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		for (j = 0; j < sizeof(gs) / sizeof(gs[0]); j++) {
			c.loss = ps[i];
			c.g = gs[j];
			if (run(&c, &r))
				return 1;
			printf("| %g%% | %u | %.2f%% | %.2f%% | %.2f%% | %.2f |\n",
			       100 * c.loss, c.g,
			       100.0 * (double)r.delivered / (double)r.sent,
			       100.0 * pow(1 - c.loss, c.g),
			       100.0 * ideal(c.loss, c.g, c.tag_copies),
			       (double)r.air_bytes / (double)r.sent);
			fflush(stdout);
		}
	}
	return 0;
}

/* The options: a name and where its value goes (an integer or a rate). */
struct option {
	const char *name;
	size_t off;
	int rate;
};

#define OPT_U(n, f) { n, offsetof(struct config, f), 0 }
#define OPT_P(n, f) { n, offsetof(struct config, f), 1 }

static const struct option options[] = {
	OPT_U("--b", b),		OPT_U("--g", g),
	OPT_U("--len", len),		OPT_U("--ad", adlen),
	OPT_U("--epochs", epochs),	OPT_U("--depth", depth),
	OPT_U("--horizon", horizon),	OPT_U("--tag-copies", tag_copies),
	OPT_U("--burst", burst),
	OPT_P("--loss", loss),		OPT_P("--corrupt", corrupt),
	OPT_P("--reorder", reorder),	OPT_P("--dup", dup),
};

static int set_option(struct config *c, const char *name, const char *v)
{
	size_t i;

	if (!strcmp(name, "--suite")) {
		c->suite = (unsigned int)strtoul(v, NULL, 10);
		return 0;
	}
	if (!strcmp(name, "--drop-log")) {
		c->drop_log = v;
		return 0;
	}
	if (!strcmp(name, "--seed")) {
		c->seed = strtoull(v, NULL, 10);
		return 0;
	}
	for (i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		if (strcmp(name, options[i].name))
			continue;
		if (options[i].rate)
			*(double *)((char *)c + options[i].off) = strtod(v, NULL);
		else
			*(uint32_t *)((char *)c + options[i].off) =
				(uint32_t)strtoul(v, NULL, 10);
		return 0;
	}
	return -1;
}

static int rate_ok(double p)
{
	return p >= 0 && p <= 1;
}

enum mode { ONE_RUN, TABLE, FILTER, PACKETS };

static int parse(int argc, char **argv, struct config *c, enum mode *mode)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--packets")) {
			*mode = PACKETS;
			continue;
		}
		if (!strcmp(argv[i], "--table") || !strcmp(argv[i], "--filter")) {
			*mode = argv[i][2] == 't' ? TABLE : FILTER;
			continue;
		}
		if (i + 1 == argc || set_option(c, argv[i], argv[i + 1]))
			return -1;
		i++;
	}
	if ((c->suite != 1 && c->suite != 2) || c->b < 1 || c->b > DMD_MAX_B ||
	    c->g < 1 || c->g > c->b || c->len > DMD_MAX_RECORD ||
	    c->adlen > DMD_MAX_AD || c->depth > 63 || c->tag_copies < 1 ||
	    !rate_ok(c->loss) || !rate_ok(c->corrupt) ||
	    !rate_ok(c->reorder) || !rate_ok(c->dup))
		return -2;
	return 0;
}

int main(int argc, char **argv)
{
	struct config c = { .suite = 2, .b = 1024, .g = 16, .len = 16,
			    .epochs = 200, .seed = 1, .loss = 0.01,
			    .corrupt = 0.001, .reorder = 0.01, .dup = 0.01,
			    .depth = 4, .horizon = 16, .tag_copies = 1 };
	struct result r;
	enum mode mode = ONE_RUN;
	int rc = parse(argc, argv, &c, &mode);

	if (rc) {
		fprintf(stderr, rc == -1 ?
			"lossy-link: unknown option or missing value (see the "
			"head of tools/lossy-link/lossy-link.c)\n" :
			"lossy-link: a value is out of range (suite 1|2, "
			"1 <= g <= b <= 65535, len <= 4096, ad <= 1024, "
			"depth <= 63, tag-copies >= 1, rates in [0, 1])\n");
		return 2;
	}
	if (mode == TABLE)
		return table(c);
	if (mode == FILTER)
		return filter(&c);
	if (mode == PACKETS)
		return packets(&c);
	if (run(&c, &r)) {
		fprintf(stderr, "lossy-link: the sender failed\n");
		return 1;
	}
	print_run(&c, &r);
	return 0;
}
