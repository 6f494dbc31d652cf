// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A verifier's packet side (Documentation/userspace.rst, "Packet-mode
 * devices in the fleet"): the packets a verifier read from its shards'
 * P/packets/<shard>/+ topics, from every forwarder, go to one packet
 * receiver (libdiamond's diamond_prx) over the packet-mode devices of its
 * state directory, where copies merge by the receiver's copy rule (spec
 * 14.5). What it releases is published as the stream path's is: a reading
 * as JSON with the ID (device, epoch, index) on P/readings/<shard>/<device>,
 * a run of records given up as {"event":"lost",...} on
 * P/events/<shard>/<device>, through the verifier's outbox.
 *
 * At least once: the receiver's stage (diamond_prx_set_stage()) is the
 * verifier's, which syncs the outbox, so what a try released is durable
 * before the state that passes it is saved, and a crash between the two
 * gives it again when the broker delivers the unacknowledged packets
 * again. The packets of units not yet decided, which no state file holds,
 * are in the receiver's spool (DIR/spool/packets, diamond_prx_spool()),
 * synced at the end of each feed, and a restarted verifier feeds them
 * first. The packets are fed in the verifier's round, before it writes
 * their PUBACKs (open_mqtt.c). In a fleet's shard every state and spool
 * write is fenced (diamond_prx_set_fence()), as the gateway's are.
 *
 * The shard of a reading is its device's: the low byte of its address mod
 * N, the shard of every packet that names it (a table by device ID, made
 * at the start, since the spool's packets are fed before any round).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "open.h"
#include "verifier_packets.h"

/* Packets held for one feed: a round's reads (64) at most, with room. */
#define HELD_BYTES	(64u << 10)

/* A packet-mode device and the low byte of its address. */
struct low {
	uint32_t id;
	uint8_t byte;
};

struct vpk {
	struct diamond_store *store;
	struct diamond_prx *x;
	struct vpk_out o;
	struct low *low;	/* by ID */
	int err;		/* an outbox_add() failure: the stage fails */
	uint8_t held[HELD_BYTES];	/* each packet after a 1-byte length */
	size_t hlen;
	uint64_t nheld, fed, refused, resumed;
	size_t ndev, nlow;
};

static int by_id(const void *a, const void *b)
{
	const struct low *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The shard of device @dev (0 for one not in the table: none comes). */
static uint32_t shard_of(const struct vpk *p, uint32_t dev)
{
	struct low key = { dev, 0 };
	const struct low *l = bsearch(&key, p->low, p->nlow, sizeof(*l), by_id);

	return l ? l->byte % p->o.shards : 0;
}

struct reading {
	uint32_t dev, index;
	uint64_t epoch;
	const uint8_t *data;
	size_t len;
};

struct lost {
	uint32_t dev, first, count;
	uint64_t epoch;
};

static void reading_json(FILE *f, const void *x)
{
	const struct reading *r = x;

	json_record(f, r->dev, r->epoch, r->index, r->data, r->len, NULL, 0);
}

static void lost_json(FILE *f, const void *x)
{
	const struct lost *l = x;

	json_lost(f, l->dev, l->epoch, l->first, l->count);
}

/* One message owed to the broker on P/@what/<shard>/<dev>. */
static void owe(struct vpk *p, const char *what, uint32_t dev,
		void (*json)(FILE *f, const void *x), const void *x)
{
	char topic[OUTBOX_MAX_TOPIC];
	size_t n;
	char *text = json_text(json, x, &n);
	int rc = -ENOMEM;

	if (text) {
		snprintf(topic, sizeof(topic), "%s/%s/%u/%u", p->o.prefix,
			 what, (unsigned int)shard_of(p, dev), (unsigned int)dev);
		rc = outbox_add(p->o.ob, topic, text, n);
	}
	free(text);
	if (rc && !p->err)
		p->err = rc;
}

static void on_record(void *arg, uint32_t dev, uint64_t e, uint32_t j,
		      const uint8_t *data, size_t len)
{
	struct reading r = { dev, j, e, data, len };

	owe(arg, "readings", dev, reading_json, &r);
}

static void on_lost(void *arg, uint32_t dev, uint64_t e, uint32_t first,
		    uint32_t count)
{
	struct lost l = { dev, first, count, e };

	owe(arg, "events", dev, lost_json, &l);
}

/* The receiver's stage: what the callbacks gave the outbox, durable. */
static int stage(void *arg)
{
	struct vpk *p = arg;

	return p->err ? p->err : p->o.stage(p->o.arg);
}

/* One packet-mode device into the table (@arg: the struct vpk). */
static int note_one(void *arg, uint32_t id, unsigned int a, uint32_t addr)
{
	struct vpk *p = arg;
	struct low *nl;

	(void)a;
	if (!(p->nlow & (p->nlow + 1))) {	/* 0, 1, 3, 7, ...: grow */
		nl = realloc(p->low, (2 * p->nlow + 1) * sizeof(*nl));
		if (!nl)
			return -ENOMEM;
		p->low = nl;
	}
	p->low[p->nlow++] = (struct low){ id, (uint8_t)addr };
	return 0;
}

int vpk_open(struct vpk **out, const char *dir, int software,
	     struct diamond_fence *fence, const struct vpk_out *o,
	     const char **why)
{
	struct diamond_prx_cbs cbs = { on_record, on_lost, NULL };
	struct vpk *p;
	size_t n;
	int rc;

	*out = NULL;
	*why = "";
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->o = *o;
	cbs.arg = p;
	/* The gateway holds the directory's lock, if any: no lock here. */
	rc = diamond_store_open(&p->store, dir, 0);
	if (!rc)
		rc = diamond_radio_list(p->store, note_one, p);
	n = p->nlow;
	if (!rc)
		qsort(p->low, p->nlow, sizeof(*p->low), by_id);
	/* Through diamond.ko's tag grid, as the gateway's units, unless
	 * --software. */
	if (!rc && n)
		rc = diamond_prx_new(&p->x, p->store, &cbs, 0,
				     software ? 0 : DIAMOND_PRX_KERNEL);
	if (!rc && n && fence)
		rc = diamond_prx_set_fence(p->x, fence);
	if (!rc && n)
		rc = diamond_prx_set_stage(p->x, stage, p);
	if (!rc && n)
		rc = diamond_prx_add_all(p->x);
	/* The packets of units an earlier run held undecided: fed first. */
	if (!rc && n && (rc = diamond_prx_spool(p->x, dir)) >= 0) {
		p->resumed = (uint64_t)rc;
		rc = p->err;
	}
	if (rc && !*why)
		*why = rc == -EADDRINUSE ? "two devices' addresses clash" :
		       "its packet-mode devices";
	if (rc || !n) {
		vpk_close(p);
		return rc;
	}
	p->ndev = n;
	*out = p;
	return 0;
}

size_t vpk_devices(const struct vpk *p)
{
	return p ? p->ndev : 0;
}

int vpk_hold(struct vpk *p, const uint8_t *pkt, size_t len)
{
	if (!len || len > DIAMOND_PKT_MAX)
		return -EINVAL;
	if (p->hlen + 1 + len > sizeof(p->held))
		return -ENOBUFS;
	p->held[p->hlen] = (uint8_t)len;
	memcpy(p->held + p->hlen + 1, pkt, len);
	p->hlen += 1 + len;
	p->nheld++;
	return 0;
}

uint64_t vpk_held(const struct vpk *p)
{
	return p ? p->nheld : 0;
}

void vpk_forget(struct vpk *p)
{
	if (!p)
		return;
	p->refused += p->nheld;
	p->hlen = 0;
	p->nheld = 0;
}

int vpk_flush(struct vpk *p)
{
	size_t at, len;
	int rc = 0;

	for (at = 0; p && at < p->hlen && !rc; at += 1 + len) {
		len = p->held[at];
		rc = diamond_prx_feed(p->x, p->held + at + 1, len);
		if (diamond_prx_dropped(rc))
			rc = 0;
		if (p->err && !rc)	/* a loss reported with no stage after */
			rc = p->err;
		p->fed++;
	}
	if (!p)
		return 0;
	p->hlen = 0;
	p->nheld = 0;
	/* The packets of units not yet decided, durable before any PUBACK. */
	return rc ? rc : diamond_prx_sync(p->x);
}

void vpk_summary(const struct vpk *p)
{
	struct diamond_prx_stats st;

	if (!p)
		return;
	diamond_prx_stats(p->x, &st);
	olog_info(1, NULL, "open --mqtt: %zu packet-mode devices: %llu packets "
		  "fed, %llu taken up from the spool, %llu not fed (the shard "
		  "a newer holder's, or a failure); %llu "
		  "released, %llu lost, %llu dropped (%llu no device, %llu "
		  "format, %llu range), %llu duplicates, %llu tries (%llu "
		  "failed)", vpk_devices(p), (unsigned long long)p->fed,
		  (unsigned long long)p->resumed,
		  (unsigned long long)p->refused,
		  (unsigned long long)st.released, (unsigned long long)st.lost,
		  (unsigned long long)(st.nodev + st.format + st.range),
		  (unsigned long long)st.nodev, (unsigned long long)st.format,
		  (unsigned long long)st.range,
		  (unsigned long long)st.duplicates,
		  (unsigned long long)st.tries, (unsigned long long)st.failed);
}

void vpk_close(struct vpk *p)
{
	if (!p)
		return;
	diamond_prx_free(p->x);
	diamond_store_close(p->store);
	free(p->low);
	free(p);
}
