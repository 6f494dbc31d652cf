// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamondctl open --mqtt --fleet DIR: one of several verifiers sharing a
 * fleet's shards, with failover (Documentation/userspace.rst, "Shards and
 * failover"; issue 31 item 3).
 *
 * Each shard s has a directory DIR/s, reachable by every verifier that
 * may take it: its device states, its spool, its outbox and its fence.
 * The verifier holding s runs one gateway there (verifier.h) with the
 * MQTT session P-shard-s-of-N, so what the broker queued or had not seen
 * acknowledged goes to whoever holds the shard next.
 *
 * Liveness: a lease per shard, retained on P/lease/s and renewed every
 * ttl/3; each verifier's P/alive/NAME is "1", and its will empties it, so
 * a verifier killed is known gone at once and one stopped once its lease
 * is ttl old. A free shard is claimed by the live verifier that ranks
 * first for it (lease.c; any verifier after 2 ttl), with the token one
 * past every token seen, and taken after a settle period in which no
 * better claim came. Safety: the fence. Taking writes the token into
 * DIR/s/fence, which refuses a token not above the stored one; every
 * write the holder makes there is checked against it, and frames are fed
 * only while it holds (open_mqtt.c). A holder that finds a newer token
 * drops the shard: nothing more fed, written or acknowledged, its copy of
 * the device states erased.
 *
 * Rebalancing: every verifier republishes P/alive/NAME every ttl/3, so a
 * live peer is one heard within 2 ttl. The owners of all shards follow
 * from the live set (lease_assign(): at most ceil(shards/n) each), the
 * same on every verifier that sees the same set. A holder whose shard
 * belongs to a peer that has been live for a whole ttl hands it over:
 * the last round of its session reads what the broker already sent,
 * feeds it and makes it durable before acknowledging it (vf_handover()),
 * then nothing is fed; the outbox's PUBACKs are awaited (at most
 * DRAIN_S), the session closed without writing more, and the lease given
 * back with the holder's token. The joiner claims it as any free shard,
 * with the token one past it, and gets what the session queued meanwhile.
 * A peer that does not take a shard handed to it (its --shard excludes
 * it, or it died) leaves it free; after 2 ttl anyone takes it back, and
 * it is not handed to that peer again until the peer took one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <mosquitto.h>

#include "fleet.h"
#include "lease.h"
#include "open.h"
#include "verifier.h"

#define SETTLE_S	1.0	/* a claim stands this long before the take */
#define CONTROL_KEEPALIVE 5	/* seconds; libmosquitto's least */
#define PEERS_MAX	256
#define LIVE_TTLS	2	/* a peer unheard this many ttl is not live */
#define DRAIN_S		5.0	/* at the end: the outboxes' PUBACKs */

static volatile sig_atomic_t stop;

enum { FREE, CLAIMING, HELD, HANDING };

struct shard {
	uint32_t id;
	struct lease seen;		/* the last lease message */
	struct lease before;		/* the lease we claimed over */
	double seen_at;			/* when it came; 0: none yet */
	double free_since;
	int state;
	uint64_t token;			/* ours, CLAIMING or HELD */
	double since, renewed;
	double not_before;		/* after a failed take: no claim yet */
	char gave_to[LEASE_NAME_MAX + 1];	/* handed to; "": taken */
	double gave_at;			/* when */
	struct diamond_fence *fence;
	struct vf *v;
	char dir[4096];
	char client_id[160];
	struct mq_opts mo;
};

struct peer {
	char name[LEASE_NAME_MAX + 1];
	int alive;
	double heard, since;	/* its last "alive"; the first of the run */
};

struct fleet {
	const struct diamond_gw_opts *go;
	struct mq_opts mo;		/* the control session */
	const char *dir, *name;
	uint32_t ttl_ms;
	uint8_t *may;			/* bit s: --shard allows s */
	struct shard *sh;
	struct mosquitto *m;
	int connected;
	double connected_at, retry;
	double last_tick;		/* the loop's last turn */
	struct peer peer[PEERS_MAX];
	size_t npeer;
	double heartbeat;		/* our last "alive" */
	int rebalance;			/* hand shards to verifiers that join */
	const char *live[PEERS_MAX + 1];	/* we first, then the peers */
	size_t nlive;
	uint64_t live_sig;		/* of @live: recompute @owner? */
	uint32_t *owner, *count;	/* lease_assign() over @live */
	char id[128];
};

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void publish_lease(struct fleet *f, struct shard *s, const char *holder)
{
	char topic[600], msg[200];
	size_t n = lease_format(msg, sizeof(msg), holder, s->token, f->ttl_ms);

	snprintf(topic, sizeof(topic), "%s/lease/%u", f->mo.prefix,
		 (unsigned int)s->id);
	if (n)
		mosquitto_publish(f->m, NULL, topic, (int)n, msg, 1, true);
}

static struct peer *peer_get(struct fleet *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->npeer; i++)
		if (!strcmp(f->peer[i].name, name))
			return &f->peer[i];
	if (f->npeer == PEERS_MAX)
		return NULL;
	snprintf(f->peer[f->npeer].name, sizeof(f->peer[0].name), "%s", name);
	f->peer[f->npeer].alive = 0;
	return &f->peer[f->npeer++];
}

/* Drop shard @s: nothing more fed, written or acknowledged; erased. */
static void drop(struct fleet *f, struct shard *s, const char *why)
{
	if (s->state == HELD || s->state == HANDING)
		olog_info(1, NULL, "fleet: shard %u dropped (token %" PRIu64
			  "): %s; %" PRIu64 " frames refused, nothing released "
			  "after that", (unsigned int)s->id, s->token, why,
			  s->v ? vf_refused(s->v) : 0);
	vf_stop(s->v, 0);
	s->v = NULL;
	diamond_fence_close(s->fence);
	s->fence = NULL;
	s->state = FREE;
	s->not_before = mono() + f->ttl_ms / 1000.0;
}

/* A lease message on P/lease/<s>. */
static void on_lease(struct fleet *f, struct shard *s, const struct lease *l)
{
	int other = strcmp(l->holder, f->name) != 0;

	/* An older token than one seen: a late verifier's, ignored. */
	if (s->seen_at && l->token < s->seen.token)
		return;
	s->seen = *l;
	s->seen_at = mono();
	if (!strcmp(l->holder, s->gave_to))
		*s->gave_to = 0;	/* it took what we handed it */
	if (!other || !*l->holder)
		return;
	if (s->state == CLAIMING &&
	    lease_beats(l->token, l->holder, s->token, f->name)) {
		olog_info(1, NULL, "fleet: shard %u: %s claims it with token %"
			  PRIu64 ", ours %" PRIu64 " gives way",
			  (unsigned int)s->id, l->holder, l->token, s->token);
		drop(f, s, "another claim won");
	} else if ((s->state == HELD || s->state == HANDING) &&
		   l->token > s->token) {
		drop(f, s, "its lease is a newer holder's");
	}
}

/* @p said "alive": a new run of it when it had been silent 2 ttl. */
static void alive(struct fleet *f, struct peer *p, double now)
{
	if (!p->alive || now - p->heard > LIVE_TTLS * f->ttl_ms / 1000.0)
		p->since = now;
	p->alive = 1;
	p->heard = now;
}

static void on_message(struct mosquitto *m, void *arg,
		       const struct mosquitto_message *msg)
{
	struct fleet *f = arg;
	size_t n = strlen(f->mo.prefix);
	const char *t = msg->topic;
	struct lease l;
	struct peer *p;
	uint64_t s;

	(void)m;
	if (strncmp(t, f->mo.prefix, n) || t[n] != '/')
		return;
	t += n + 1;
	if (!strncmp(t, "alive/", 6) && lease_name_ok(t + 6)) {
		p = peer_get(f, t + 6);
		if (p && msg->payloadlen > 0)
			alive(f, p, mono());
		else if (p)
			p->alive = 0;
	} else if (!strncmp(t, "lease/", 6) &&
		   !parse_u64(t + 6, f->mo.shards - 1, &s) &&
		   msg->payloadlen > 0 &&
		   !lease_parse(msg->payload, (size_t)msg->payloadlen, &l)) {
		on_lease(f, &f->sh[s], &l);
	}
}

static void on_connect(struct mosquitto *m, void *arg, int rc)
{
	struct fleet *f = arg;
	char topic[600];

	if (rc) {
		olog(OLOG_SOURCE, NULL, "fleet: broker refused the connection: %s",
		     mosquitto_connack_string(rc));
		return;
	}
	f->connected = 1;
	f->connected_at = mono();
	f->heartbeat = 0;	/* "alive" at the next turn */
	snprintf(topic, sizeof(topic), "%s/alive/+", f->mo.prefix);
	mosquitto_subscribe(m, NULL, topic, 1);
	snprintf(topic, sizeof(topic), "%s/lease/+", f->mo.prefix);
	mosquitto_subscribe(m, NULL, topic, 1);
}

/* Is @s free: never leased, given back, its holder gone or silent? */
static int is_free(const struct fleet *f, const struct shard *s, double now)
{
	size_t i;

	if (!s->seen_at || !*s->seen.holder)
		return 1;
	if (now > s->seen_at + s->seen.ttl_ms / 1000.0)
		return 1;
	for (i = 0; i < f->npeer; i++)
		if (!strcmp(f->peer[i].name, s->seen.holder))
			return !f->peer[i].alive;
	return 0;
}

/* Has a lease of @name run out unrenewed? Then it is alive but stuck. */
static int stuck(const struct fleet *f, const char *name, double now)
{
	uint32_t i;

	for (i = 0; i < f->mo.shards; i++)
		if (f->sh[i].seen_at && !strcmp(f->sh[i].seen.holder, name) &&
		    now > f->sh[i].seen_at + f->sh[i].seen.ttl_ms / 1000.0)
			return 1;
	return 0;
}

/*
 * Is @p live: said "alive" within 2 ttl (six heartbeats: a loaded
 * machine's stalls do not make the live set, and so the owners, flap),
 * and no lease of it run out unrenewed (then it is stopped or stuck, its
 * will not yet fired)?
 */
static int live(const struct fleet *f, const struct peer *p, double now)
{
	return p->alive && now - p->heard <= LIVE_TTLS * f->ttl_ms / 1000.0 &&
	       !stuck(f, p->name, now);
}

/* The live set, and when it changed, each shard's owner (lease.c). */
static void assign(struct fleet *f, double now)
{
	uint64_t sig = 14695981039346656037ull;
	const char *c;
	size_t i;

	f->nlive = 0;
	f->live[f->nlive++] = f->name;
	for (i = 0; i < f->npeer; i++)
		if (strcmp(f->peer[i].name, f->name) &&
		    live(f, &f->peer[i], now))
			f->live[f->nlive++] = f->peer[i].name;
	for (i = 0; i < f->nlive; i++)	/* peers are never removed */
		for (c = f->live[i]; ; c++) {
			sig = (sig ^ (uint8_t)*c) * 1099511628211ull;
			if (!*c)
				break;
		}
	if (sig == f->live_sig)
		return;
	f->live_sig = sig;
	lease_assign(f->live, f->nlive, f->mo.shards, f->owner, f->count);
	olog_info(1, NULL, "fleet: %zu live verifier%s; %u shard%s ours",
		  f->nlive, f->nlive == 1 ? "" : "s", (unsigned int)f->count[0],
		  f->count[0] == 1 ? "" : "s");
}

/*
 * Should we claim free @s? When it is ours in the assignment over the
 * live verifiers, or once it stayed free for 2 ttl.
 */
static int ours_to_claim(const struct fleet *f, const struct shard *s,
			 double now)
{
	return now - s->free_since > 2 * f->ttl_ms / 1000.0 ||
	       f->owner[s->id] == 0;
}

/*
 * Whom should held @s go to: its owner, if that is a peer live for a
 * whole ttl (a joiner settled, not one retained message), not one that
 * left it free when we handed it over before; else NULL.
 */
static const char *hand_to(const struct fleet *f, const struct shard *s,
			   double now)
{
	const char *to = f->live[f->owner[s->id]];
	size_t i;

	/*
	 * Not again to a peer that did not take what we handed it, for two
	 * live periods: it looked live but did not claim (stopped, say).
	 * Never again would keep its share from it once it runs again
	 * (check-fleet's join test: B stopped, then continued).
	 */
	if (!f->rebalance || !f->owner[s->id] ||
	    (!strcmp(to, s->gave_to) &&
	     now - s->gave_at < 2 * LIVE_TTLS * f->ttl_ms / 1000.0) ||
	    now - f->connected_at < f->ttl_ms / 1000.0)
		return NULL;
	for (i = 0; i < f->npeer; i++)
		if (!strcmp(f->peer[i].name, to))
			return now - f->peer[i].since >= f->ttl_ms / 1000.0 ?
			       to : NULL;
	return NULL;
}

static void claim(struct fleet *f, struct shard *s, double now)
{
	uint64_t stored = 0;
	int rc;

	snprintf(s->dir, sizeof(s->dir), "%s/%u", f->dir, (unsigned int)s->id);
	if (mkdir(s->dir, 0700) < 0 && errno != EEXIST) {
		olog(OLOG_SETUP, NULL, "fleet: %s: %m", s->dir);
		return;
	}
	rc = diamond_fence_open(&s->fence, s->dir);
	if (!rc)
		rc = diamond_fence_read(s->fence, &stored, NULL, 0);
	if (rc) {
		olog(OLOG_SETUP, NULL, "fleet: %s/fence: %s", s->dir,
		     strerror(-rc));
		drop(f, s, "no fence");
		return;
	}
	s->token = (stored > s->seen.token ? stored : s->seen.token) + 1;
	s->before = s->seen;
	s->state = CLAIMING;
	s->since = now;
	publish_lease(f, s, f->name);
}

/* The claim stood: take the fence, then the shard's gateway and session. */
static void take(struct fleet *f, struct shard *s, double now)
{
	struct diamond_gw_opts go = *f->go;
	int rc = diamond_fence_take(s->fence, s->token, f->name), usage;

	if (rc) {
		olog_info(1, NULL, "fleet: shard %u: the fence refuses token %"
			  PRIu64 " (%s)", (unsigned int)s->id, s->token,
			  rc == -ESTALE ? "a newer holder took it" : strerror(-rc));
		drop(f, s, "fence");
		return;
	}
	go.state_dir = s->dir;
	go.flags |= DIAMOND_GW_SHARED;
	s->mo = f->mo;
	s->mo.keepalive = 0;	/* a shard's session: MQ_KEEPALIVE */
	snprintf(s->client_id, sizeof(s->client_id), "%s-shard-%u-of-%u",
		 f->mo.prefix, (unsigned int)s->id, (unsigned int)f->mo.shards);
	s->mo.client_id = s->client_id;
	s->state = HELD;
	s->v = vf_start(&go, &s->mo, strrchr(s->dir, '/') + 1, s->fence,
			&usage);
	if (!s->v) {
		drop(f, s, "its gateway did not start");
		return;
	}
	s->renewed = now;
	publish_lease(f, s, f->name);
	olog_info(1, NULL, "fleet: shard %u taken with token %" PRIu64
		  " (the lease before: %s, token %" PRIu64 ")",
		  (unsigned int)s->id, s->token,
		  *s->before.holder ? s->before.holder : "none",
		  s->before.token);
}

/* Every ttl/3, @s's lease renewed while the fence holds, else dropped. */
static void renew(struct fleet *f, struct shard *s, double now)
{
	if (now - s->renewed < f->ttl_ms / 3000.0)
		return;
	if (diamond_fence_check(s->fence)) {
		drop(f, s, "the fence holds a newer token");
		return;
	}
	s->renewed = now;
	publish_lease(f, s, f->name);
}

/* Start handing @s over to @to: its session's last round. */
static void hand_over(struct fleet *f, struct shard *s, const char *to,
		      double now)
{
	uint64_t fed;
	int rc = vf_handover(s->v, &fed);

	if (rc) {
		drop(f, s, rc == -ESTALE ? "a newer holder took it" :
		     diamond_strerror(rc));
		return;
	}
	snprintf(s->gave_to, sizeof(s->gave_to), "%s", to);
	s->gave_at = now;
	s->state = HANDING;
	s->since = now;
	olog_info(1, NULL, "fleet: shard %u handed over to %s: %" PRIu64
		  " frames of the last round fed and durable, nothing more "
		  "fed (token %" PRIu64 ")", (unsigned int)s->id, to, fed,
		  s->token);
}

/*
 * A shard handed over: once its outbox is acknowledged (or DRAIN_S
 * passed: the next holder publishes what is left), the session closes
 * and the lease, still ours, is given back with our token; the next
 * holder's claim must be above it, and the fence refuses it otherwise.
 */
static void release(struct fleet *f, struct shard *s, double now)
{
	uint64_t left;

	vf_drain(s->v);
	if (vf_error(s->v) == -ESTALE) {
		drop(f, s, "a newer holder took it");
		return;
	}
	if (!vf_drained(s->v) && now - s->since < DRAIN_S)
		return;
	left = vf_left(s->v);
	vf_stop(s->v, 0);
	s->v = NULL;
	s->state = FREE;
	if (diamond_fence_check(s->fence)) {
		drop(f, s, "the fence holds a newer token");
		return;
	}
	publish_lease(f, s, "");
	olog_info(1, NULL, "fleet: shard %u given back for %s (token %" PRIu64
		  "); %" PRIu64 " frames read after the last round left to it",
		  (unsigned int)s->id, s->gave_to, s->token, left);
	drop(f, s, "handed over");
}

/* A held shard: one round, and its lease renewed while the fence holds. */
static void hold(struct fleet *f, struct shard *s, double now)
{
	const char *to;
	int rc;

	vf_step(s->v, 0);
	rc = vf_error(s->v);
	if (rc == -ESTALE) {
		olog_info(1, NULL, "fleet: shard %u: the store holds token %"
			  PRIu64 ", ours is %" PRIu64 ": refused",
			  (unsigned int)s->id, diamond_fence_stale(s->fence),
			  s->token);
		drop(f, s, "a newer holder took it");
	} else if (rc) {	/* a storage failure: nothing acknowledged */
		char why[4600];

		snprintf(why, sizeof(why), "%s%s%s", vf_failure(s->v),
			 *vf_failure(s->v) ? ": " : "", diamond_strerror(rc));
		drop(f, s, why);
	} else if (now - s->renewed >= f->ttl_ms / 3000.0) {
		renew(f, s, now);
	} else if ((to = hand_to(f, s, now))) {
		hand_over(f, s, to, now);
	}
}

/*
 * We did not run for a while (stopped, swapped out): the leases we saw
 * are as old as that, and renewals may be waiting in the socket. Judge
 * nothing free until the view is fresh again: a settle period from now,
 * and every holder a whole lease from now to show a renewal.
 */
static void woke_up(struct fleet *f, double now)
{
	uint32_t i;

	olog_info(1, NULL, "fleet: %.1f s without running: the leases are "
		  "read again before any claim", now - f->last_tick);
	f->connected_at = now;
	for (i = 0; i < f->mo.shards; i++)
		if (f->sh[i].seen_at)
			f->sh[i].seen_at = now;
}

/* "alive", retained, every ttl/3: how peers tell we still run. */
static void heartbeat(struct fleet *f, double now)
{
	char topic[600];

	if (!f->connected || now - f->heartbeat < f->ttl_ms / 3000.0)
		return;
	snprintf(topic, sizeof(topic), "%s/alive/%s", f->mo.prefix, f->name);
	mosquitto_publish(f->m, NULL, topic, 1, "1", 1, true);
	f->heartbeat = now;
}

static void tick(struct fleet *f, double now)
{
	uint32_t i;
	struct shard *s;

	if (f->last_tick && now - f->last_tick > f->ttl_ms / 4000.0)
		woke_up(f, now);
	f->last_tick = now;
	heartbeat(f, now);
	assign(f, now);
	for (i = 0; i < f->mo.shards; i++) {
		s = &f->sh[i];
		if (s->state != FREE)
			s->free_since = now;
		if (s->state == HANDING) {
			renew(f, s, now);
			if (s->state == HANDING)
				release(f, s, now);
		} else if (s->state == HELD) {
			hold(f, s, now);
		} else if (s->state == CLAIMING) {
			if (now - s->since >= SETTLE_S)
				take(f, s, now);
		} else if (!(f->may[i / 8] >> (i % 8) & 1) ||
			   !f->connected || now - f->connected_at < SETTLE_S ||
			   now < s->not_before || !is_free(f, s, now)) {
			s->free_since = now;
		} else if (ours_to_claim(f, s, now)) {
			claim(f, s, now);
		}
	}
}

/* The control session: poll, read, write, keep alive, reconnect. */
static void control(struct fleet *f, double now)
{
	int rc = mosquitto_loop(f->m, 0, 1);

	if (rc == MOSQ_ERR_SUCCESS)
		return;
	if (f->connected)
		olog(OLOG_SOURCE, NULL, "fleet: broker connection lost (%s); "
		     "reconnecting", mosquitto_strerror(rc));
	f->connected = 0;
	/* The next broker of the list (a cluster's next node). */
	if (now >= f->retry && mq_connect(f->m, &f->mo, 1, 1))
		f->retry = now + 1;
}

/* Wait for any socket: the control session's and every held shard's. */
static void wait_sockets(struct fleet *f)
{
	struct pollfd p[64];
	nfds_t n = 0;
	uint32_t i;

	if (mosquitto_socket(f->m) >= 0)
		p[n++] = (struct pollfd){ .fd = mosquitto_socket(f->m),
					  .events = POLLIN };
	for (i = 0; i < f->mo.shards && n < 63; i++) {
		if (f->sh[i].v && vf_socket(f->sh[i].v) >= 0)
			p[n++] = (struct pollfd){ .fd = vf_socket(f->sh[i].v),
						  .events = POLLIN };
		if (f->sh[i].v && vf_out_socket(f->sh[i].v) >= 0)
			p[n++] = (struct pollfd){ .fd = vf_out_socket(f->sh[i].v),
						  .events = POLLIN };
	}
	poll(p, n, 100);
}

/* SIGTERM: each shard's outbox drained, its lease given back. */
static void leave(struct fleet *f)
{
	double end = mono() + DRAIN_S;
	size_t owed;
	uint32_t i;
	char topic[600];

	do {
		owed = 0;
		for (i = 0; i < f->mo.shards; i++)
			if (f->sh[i].state == HELD && !vf_error(f->sh[i].v)) {
				vf_step(f->sh[i].v, 0);
				owed += vf_owed(f->sh[i].v);
			} else if (f->sh[i].state == HANDING) {
				vf_drain(f->sh[i].v);
				owed += !vf_drained(f->sh[i].v);
			}
		if (owed)
			wait_sockets(f);
	} while (owed && mono() < end);
	for (i = 0; i < f->mo.shards; i++) {
		if (f->sh[i].state != HELD && f->sh[i].state != HANDING)
			continue;
		vf_stop(f->sh[i].v, 1);	/* handing over: nothing written */
		f->sh[i].v = NULL;
		if (!diamond_fence_check(f->sh[i].fence))
			publish_lease(f, &f->sh[i], "");
		drop(f, &f->sh[i], "leaving");
	}
	snprintf(topic, sizeof(topic), "%s/alive/%s", f->mo.prefix, f->name);
	mosquitto_publish(f->m, NULL, topic, 0, NULL, 1, true);
	mosquitto_disconnect(f->m);
	for (i = 0; i < 20 && mosquitto_loop(f->m, 50, 1) == MOSQ_ERR_SUCCESS; i++)
		;
}

/* "0,2,5-7" (NULL: all) into the bitmap @may; 0 or -1 after a message. */
static int parse_shard_list(const char *list, uint32_t n, uint8_t *may)
{
	char *copy, *tok, *save = NULL, *dash;
	uint64_t a, b;
	int rc = 0;

	if (!list) {
		memset(may, 0xff, n / 8 + 1);
		return 0;
	}
	copy = strdup(list);
	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		dash = strchr(tok, '-');
		if (dash)
			*dash = 0;
		rc = parse_u64(tok, n - 1, &a) ||
		     parse_u64(dash ? dash + 1 : tok, n - 1, &b) || a > b;
		for (; !rc && a <= b; a++)
			may[a / 8] |= (uint8_t)(1u << (a % 8));
	}
	if (!copy || rc)
		err_msg("--shard '%s': shards below --shards, as 0,2,5-7", list);
	free(copy);
	return copy && !rc ? 0 : -1;
}

static int setup(struct fleet *f, const char *shards)
{
	char topic[600];
	uint32_t i;

	f->sh = calloc(f->mo.shards, sizeof(*f->sh));
	f->may = calloc(f->mo.shards / 8 + 1, 1);
	f->owner = calloc(f->mo.shards, sizeof(*f->owner));
	f->count = calloc(PEERS_MAX + 1, sizeof(*f->count));
	if (!f->sh || !f->may || !f->owner || !f->count)
		return -1;
	for (i = 0; i < f->mo.shards; i++)
		f->sh[i].id = i;
	if (parse_shard_list(shards, f->mo.shards, f->may))
		return -1;
	snprintf(f->id, sizeof(f->id), "%s-verifier-%s", f->mo.prefix, f->name);
	f->mo.client_id = f->id;
	f->m = mq_client(&f->mo, 1, f);
	if (!f->m)
		return -1;
	snprintf(topic, sizeof(topic), "%s/alive/%s", f->mo.prefix, f->name);
	mosquitto_will_set(f->m, topic, 0, NULL, 1, true);
	mosquitto_connect_callback_set(f->m, on_connect);
	mosquitto_message_callback_set(f->m, on_message);
	f->mo.keepalive = CONTROL_KEEPALIVE;
	if (mq_connect(f->m, &f->mo, 0, 0))
		f->retry = mono() + 1;	/* the loop keeps trying */
	return 0;
}

int fleet_run(const struct diamond_gw_opts *go, const struct mq_opts *mo,
	      const struct fleet_opts *fo)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct fleet f = { .go = go, .mo = *mo, .dir = fo->dir,
			   .name = fo->name, .ttl_ms = fo->lease_ms,
			   .rebalance = !fo->no_rebalance };
	int rc = 0;

	if (setup(&f, fo->shards)) {
		rc = EXIT_USAGE;
		goto out;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	olog_info(1, NULL, "fleet: verifier %s, %u shards in %s, lease %u ms",
		  f.name, (unsigned int)f.mo.shards, f.dir,
		  (unsigned int)f.ttl_ms);
	while (!stop) {
		tick(&f, mono());
		control(&f, mono());
		wait_sockets(&f);
	}
	leave(&f);
out:
	if (f.m)
		mosquitto_destroy(f.m);
	free(f.sh);
	free(f.may);
	free(f.owner);
	free(f.count);
	return rc;
}
