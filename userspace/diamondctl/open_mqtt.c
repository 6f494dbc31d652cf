// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamondctl open --mqtt: the verifier of a fleet (Documentation/
 * userspace.rst, "Fleet on MQTT"). It subscribes to P/frames/<shard>/+ for
 * each of its shards, with a persistent session (clean session off, a
 * fixed client ID) at QoS 1, so frames from every forwarder reach one
 * gateway (libdiamond), where copies merge by the copy rule (spec 8.1)
 * and units verify as they do for open. Readings go out as JSON on
 * P/readings/<shard>/<device>, rejected and lost units on
 * P/events/<shard>/<device>, QoS 1, through the outbox (outbox.c).
 *
 * At least once, end to end: a frame is acknowledged only once what it
 * produced is durable. libmosquitto 2.0 has no call to acknowledge a
 * message; it queues the PUBACK as it hands the message over. So the
 * client runs in its "threaded" mode (mosquitto_threaded_set()) with no
 * thread: a queued packet is then only written by mosquitto_loop_write(),
 * which this loop calls after the frames read are fed to the gateway,
 * the outbox is fdatasync'd and the spool is (diamond_gw_feed() syncs
 * it). The gateway's stage (diamond_gw_set_stage()) puts a unit's
 * readings in the outbox and syncs it before the device's state is
 * saved, so a crash between the two gives them again, never loses them.
 *
 * The readings and events go out on a session of their own (client ID
 * <ID>-out, also persistent), the outbox's window of OUTBOX_WINDOW
 * messages in flight at a time, so that the verifier can stop reading
 * frames without starving their PUBACKs: backpressure (--max-owed N).
 * While N readings and events are owed, the frames session is not read;
 * the broker keeps the frames (the forwarders' QoS 1) and TCP stops
 * their flow, so a feed faster than the broker takes readings costs the
 * verifier no memory. (On one session the PUBACKs queue behind the frames:
 * mosquitto 2.0 sends a persistent session's frames without waiting for
 * their PUBACKs, thousands at a time, and a 20,000-device run's owed
 * readings grew past 16,384.)
 *
 * The broker may be a cluster (--mqtt with several addresses): when the
 * connection drops, run() connects to the next node with the same client
 * ID and clean session off, and the cluster serves the session from
 * there. The PUBACKs not yet written die with the old connection, so the
 * cluster delivers those frames again; the outbox's messages stay queued
 * in libmosquitto and go out again after the CONNACK. A CONNACK without
 * the session (the cluster lost it) is logged: frames published meanwhile
 * may be gone.
 *
 * Packet-mode devices (spec section 14) of the state directory are
 * verified beside the stream's: their packets come on P/packets/<shard>/+
 * (forward --packet), go to the packet receiver (verifier_packets.c) in
 * the same round, and are acknowledged by the same rule.
 *
 * One struct vf is one gateway with its outbox and its MQTT session: the
 * whole verifier (open_mqtt()), or one shard of a fleet (fleet.c, through
 * verifier.h), whose directory is shared and fenced: every write there is
 * checked against the shard's fencing token, and a round whose frames
 * would be fed after a newer holder took the shard feeds nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mosquitto.h>

#include "mqtt.h"
#include "open.h"
#include "outbox.h"
#include "verifier.h"
#include "verifier_packets.h"

#define BATCH_BYTES	(256u << 10)	/* frames fed to the gateway at once */
#define READS_PER_ROUND	64		/* packets read before a sync */
#define DRAIN_SECONDS	5		/* at the end: waiting for PUBACKs */
/* A handover's last round waits this long for frames already sent. */
#define HANDOVER_READ_MS 100

static volatile sig_atomic_t stop;

struct vf {
	struct diamond_fence *fence;	/* a fleet's shard, or NULL */
	double retry;			/* next reconnect */
	struct diamond_gw *gw;
	struct vpk *pk;			/* packet-mode devices, or NULL */
	struct outbox *ob;
	struct mosquitto *m;
	struct mosquitto *pm;		/* the readings' session */
	struct mq_opts *mo;
	struct mq_opts po;		/* *mo, its client ID <ID>-out */
	char pid[MQ_MAX_ID + 160];
	double pretry;			/* next reconnect of @pm */
	unsigned int pub_tried;		/* connections of @pm tried */
	int pconnected;			/* @pm's CONNACK accepted it */
	uint8_t *mine;			/* bit s: shard s is ours */
	uint8_t *batch;
	size_t blen;
	uint64_t nbatch;		/* frames in @batch */
	char id[128];			/* the default client ID */
	int started;			/* vf_start() went through */
	int kernel;			/* units verified by diamond.ko */
	int fatal;			/* -errno: stop, acknowledge nothing more */
	char fatal_what[4400];		/* the file it is about, or "" */
	int connected;
	int closing;			/* handed over: nothing fed or acked */
	int was_connected;		/* a CONNACK accepted us before */
	uint32_t subscribed;		/* SUBSCRIBEs of this connection */
	uint32_t suback_owed;		/* of them, not yet acknowledged */
	const char *never;		/* why the first connection failed */
	int paused;			/* owed >= max_owed: frames not read */
	size_t peak_owed;
	uint64_t messages, taken, bad_topic, bad_envelope, bad_frame,
		 misfiled, readings, events, refused, left, pauses;
};

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* The first fatal error (@what: the file it is about): stop there. */
static void fail(struct vf *v, int err, const char *what)
{
	if (v->fatal)
		return;
	v->fatal = err;
	snprintf(v->fatal_what, sizeof(v->fatal_what), "%s", what);
}

static int ours(const struct vf *v, uint32_t shard)
{
	return shard < v->mo->shards && (v->mine[shard / 8] >> (shard % 8) & 1);
}

/* "0,2,5-7" into the bitmap; 0 or -1. */
static int parse_shards(struct vf *v, const char *list)
{
	uint64_t a, b;
	char *copy = strdup(list), *tok, *save = NULL, *dash;
	int rc = 0;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		dash = strchr(tok, '-');
		if (dash)
			*dash = 0;
		rc = parse_u64(tok, v->mo->shards - 1, &a) ||
		     parse_u64(dash ? dash + 1 : tok, v->mo->shards - 1, &b) ||
		     a > b;
		for (; !rc && a <= b; a++)
			v->mine[a / 8] |= (uint8_t)(1u << (a % 8));
	}
	free(copy);
	return rc ? -1 : 0;
}

/* One message owed to the broker, @what "readings" or "events". */
static void owe(struct vf *v, const char *what, uint32_t dev,
		void (*json)(FILE *f, const void *x), const void *x)
{
	char topic[OUTBOX_MAX_TOPIC];
	size_t n;
	char *p = json_text(json, x, &n);
	int rc = -ENOMEM;

	if (p) {
		snprintf(topic, sizeof(topic), "%s/%s/%u/%u", v->mo->prefix,
			 what, (unsigned int)(dev % v->mo->shards),
			 (unsigned int)dev);
		rc = outbox_add(v->ob, topic, p, n);
	}
	free(p);
	if (rc)
		fail(v, rc, "outbox");
}

static void reading_json(FILE *f, const void *x)
{
	const struct diamond_record *r = x;

	json_record(f, r->device_id, r->epoch, r->index, r->data, r->len,
		    r->ad, r->adlen);
}

static void on_reading(void *arg, const struct diamond_record *r)
{
	struct vf *v = arg;

	owe(v, "readings", r->device_id, reading_json, r);
	v->readings++;
}

static void groups_json(FILE *f, const void *x)
{
	epoch_groups_json(f, x);
}

static void unit_json(FILE *f, const void *x)
{
	unit_event_json(f, x);
}

static void on_event(void *arg, const struct diamond_event *ev)
{
	struct vf *v = arg;

	switch (ev->kind) {
	case DIAMOND_EV_REJECTED:
	case DIAMOND_EV_GROUP_REJECTED:
	case DIAMOND_EV_GROUP_UNDECIDED:
		owe(v, "events", ev->device_id, unit_json, ev);
		v->events++;
		break;
	case DIAMOND_EV_EPOCH_GROUPS:
		owe(v, "events", ev->device_id, groups_json, ev);
		v->events++;
		break;
	default:	/* verified; frame errors cannot come (checked) */
		break;
	}
}

/* The gateway's stage: the readings handed out are durable first. */
static int commit(void *arg)
{
	struct vf *v = arg;
	char what[4200];
	int rc = v->fatal ? v->fatal : outbox_sync(v->ob);

	if (rc && !v->fatal) {
		snprintf(what, sizeof(what), "outbox %s", outbox_path(v->ob));
		fail(v, rc, what);
	}
	return rc;
}

/*
 * The frames read, to the gateway; in a fleet's shard only while the
 * shard is still ours: its device states are not used once a newer
 * holder took it (and every write would be refused anyway). The feed
 * fails when it could not make what they brought durable (the spool, a
 * state file: diamond_gw_failure(); -ESTALE: the shard was lost).
 */
static void flush_batch(struct vf *v)
{
	int rc;

	if ((v->blen || vpk_held(v->pk)) && v->fence &&
	    diamond_fence_check(v->fence)) {
		v->refused += v->nbatch;
		v->blen = 0;
		vpk_forget(v->pk);
	}
	v->nbatch = 0;
	rc = v->blen ? diamond_gw_feed(v->gw, v->batch, v->blen) : 0;
	if (rc < 0)
		fail(v, rc, diamond_gw_failure(v->gw));
	v->blen = 0;
	/* The packets: what they release staged like the frames' readings. */
	rc = v->pk && !v->fatal ? vpk_flush(v->pk) : 0;
	if (rc < 0)
		fail(v, rc, "packet-mode device states");
	vpk_forget(v->pk);	/* after a failure: not fed, not acked */
}

/*
 * P/frames/<shard>/<id> or P/packets/<shard>/<id> (*@packets set): the
 * shard, or -1 for any other topic.
 */
static long topic_shard(const struct vf *v, const char *t, int *packets)
{
	size_t n = strlen(v->mo->prefix);
	const char *slash;
	char id[MQ_MAX_ID + 1];
	uint64_t s;
	char num[12];

	if (strncmp(t, v->mo->prefix, n))
		return -1;
	*packets = !strncmp(t + n, "/packets/", 9);
	if (!*packets && strncmp(t + n, "/frames/", 8))
		return -1;
	t += n + (*packets ? 9 : 8);
	slash = strchr(t, '/');
	if (!slash || slash - t >= (long)sizeof(num) ||
	    strlen(slash + 1) > MQ_MAX_ID)
		return -1;
	memcpy(num, t, (size_t)(slash - t));
	num[slash - t] = 0;
	strcpy(id, slash + 1);
	if (parse_u64(num, MQ_MAX_SHARDS - 1, &s) || !mq_id_ok(id))
		return -1;
	return (long)s;
}

/*
 * A packet from P/packets/<shard>/+: one of the PHY's length, whose first
 * byte (its address's low byte) is of that shard, is held for the packet
 * receiver; the rest is dropped and counted.
 */
static void take_packet(struct vf *v, uint32_t shard, const uint8_t *pkt,
			size_t len)
{
	if (!v->pk || !len || len > DIAMOND_PKT_MAX) {
		v->bad_frame++;
		return;
	}
	if (pkt[0] % v->mo->shards != shard) {
		v->misfiled++;
		return;
	}
	if (vpk_hold(v->pk, pkt, len) == -ENOBUFS) {
		flush_batch(v);
		vpk_hold(v->pk, pkt, len);
	}
	v->nbatch++;
	v->taken++;
}

/*
 * A message from a frames topic: radio input, whoever published it. Only
 * a whole, well-formed frame of a device of the topic's shard, which is
 * ours, goes on to the gateway; the envelope's ID and metadata decide
 * nothing.
 */
static void on_message(struct mosquitto *m, void *arg,
		       const struct mosquitto_message *msg)
{
	struct vf *v = arg;
	struct diamond_frame f;
	char gw_id[MQ_MAX_ID + 1];
	const uint8_t *frame;
	size_t flen;
	long shard;
	int packets;

	(void)m;
	v->messages++;
	if (v->closing) {	/* its PUBACK is never written: redelivered */
		v->left++;
		return;
	}
	shard = topic_shard(v, msg->topic, &packets);
	if (shard < 0 || !ours(v, (uint32_t)shard)) {
		v->bad_topic++;
		return;
	}
	if (msg->payloadlen < 0 ||
	    mq_unwrap(msg->payload, (size_t)msg->payloadlen, &frame, &flen,
		      gw_id)) {
		v->bad_envelope++;
		return;
	}
	if (packets) {
		take_packet(v, (uint32_t)shard, frame, flen);
		return;
	}
	if (diamond_frame_parse(&f, frame, flen) != (int)flen || !flen) {
		v->bad_frame++;
		return;
	}
	if (f.device_id % v->mo->shards != (uint32_t)shard) {
		v->misfiled++;
		return;
	}
	if (v->blen + flen > BATCH_BYTES)
		flush_batch(v);
	memcpy(v->batch + v->blen, frame, flen);
	v->blen += flen;
	v->nbatch++;
	v->taken++;
}

static void on_publish(struct mosquitto *m, void *arg, int mid)
{
	struct vf *v = arg;

	(void)m;
	outbox_acked(v->ob, mid);
}

static void on_connect(struct mosquitto *m, void *arg, int rc, int flags)
{
	struct vf *v = arg;
	char topic[600];
	uint32_t s;

	if (rc && !v->was_connected && !v->never)	/* a setup error */
		v->never = mosquitto_connack_string(rc);
	if (rc) {
		olog(OLOG_SOURCE, NULL, "broker %s refused the connection: %s",
		     mq_broker_name(v->mo, v->mo->at),
		     mosquitto_connack_string(rc));
		return;
	}
	if (v->was_connected && !(flags & 1))
		olog(OLOG_SOURCE, NULL, "broker %s: the session is gone (not "
		     "present); frames published while none was connected "
		     "may be lost", mq_broker_name(v->mo, v->mo->at));
	else
		olog_info(1, NULL, "connected to the broker at %s (session %s)",
			  mq_broker_name(v->mo, v->mo->at),
			  flags & 1 ? "present" : "new");
	v->connected = 1;
	v->was_connected = 1;
	v->suback_owed = 0;
	for (s = 0; s < v->mo->shards; s++) {
		if (!ours(v, s))
			continue;
		snprintf(topic, sizeof(topic), "%s/frames/%u/+", v->mo->prefix,
			 (unsigned int)s);
		if (mosquitto_subscribe(m, NULL, topic, 1) == MOSQ_ERR_SUCCESS)
			v->suback_owed++;
		snprintf(topic, sizeof(topic), "%s/packets/%u/+", v->mo->prefix,
			 (unsigned int)s);
		if (v->pk &&
		    mosquitto_subscribe(m, NULL, topic, 1) == MOSQ_ERR_SUCCESS)
			v->suback_owed++;
	}
	v->subscribed = v->suback_owed;
}

/* The readings' session: a CONNACK. */
static void on_pconnect(struct mosquitto *m, void *arg, int rc, int flags)
{
	struct vf *v = arg;

	(void)m;
	(void)flags;
	v->pconnected = !rc;
	if (rc)
		olog(OLOG_SOURCE, NULL, "broker %s refused the readings' "
		     "session: %s", mq_broker_name(&v->po, v->po.at),
		     mosquitto_connack_string(rc));
	else
		olog_info(2, NULL, "readings' session connected at %s",
			  mq_broker_name(&v->po, v->po.at));
}

/*
 * A SUBACK. Frames published before the broker holds the subscription
 * never reach this session (a first start: no session yet), so the log
 * says when all are held; a subscription refused (0x80, as NATS answers
 * when it cannot make the consumer) or granted at QoS 0 (no session
 * keeps its frames) is an error.
 */
static void on_subscribe(struct mosquitto *m, void *arg, int mid, int n,
			 const int *granted)
{
	struct vf *v = arg;
	int i;

	(void)m;
	(void)mid;
	for (i = 0; i < n; i++)
		if (granted[i] != 1)
			olog(OLOG_SOURCE, NULL, "broker %s %s a frames subscription",
			     mq_broker_name(v->mo, v->mo->at),
			     granted[i] == 0 ? "granted only QoS 0 to" : "refused");
	if (v->suback_owed && !--v->suback_owed)
		olog_info(1, NULL, "subscribed to the frames%s of its %u shards at %s",
			  v->pk ? " and packets" : "",
			  (unsigned int)(v->pk ? v->subscribed / 2 : v->subscribed),
			  mq_broker_name(v->mo, v->mo->at));
}

static int pub(void *arg, const char *topic, const void *p, size_t len,
	       int *mid)
{
	struct vf *v = arg;

	/* Not before the CONNACK: libmosquitto 2.0.11 sends a message
	 * published while it connects twice (a reading delivered twice,
	 * seen in check-fleet's fencing test). */
	if (!v->pconnected)
		return 1;
	return mosquitto_publish(v->pm, mid, topic, (int)len, p, 1, false) !=
	       MOSQ_ERR_SUCCESS;
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) > 0;
}

/*
 * The readings' session: its PUBACKs read, what is queued written; when
 * it is away, the next broker of the list (every second). Not connected
 * yet, publishing fails and outbox_send() tries again next round.
 */
static void pub_step(struct vf *v)
{
	int fd = mosquitto_socket(v->pm), rc = MOSQ_ERR_SUCCESS, i;

	/*
	 * It follows the frames session: first once that one is accepted
	 * (a setup error is that one's to report), at the same node. Handed
	 * over, it is the next holder's: never taken back.
	 */
	if (fd < 0) {
		if (v->closing || !v->was_connected || mono() < v->pretry)
			return;
		if (!v->pub_tried++)
			v->po.at = v->mo->at;
		v->pconnected = 0;
		if (mq_connect(v->pm, &v->po, v->pub_tried > 1, 1))
			v->pretry = mono() + 1;
		return;
	}
	for (i = 0; i < READS_PER_ROUND && rc == MOSQ_ERR_SUCCESS &&
	     readable(fd); i++)
		rc = mosquitto_loop_read(v->pm, 1);
	if (rc == MOSQ_ERR_SUCCESS && mosquitto_want_write(v->pm))
		rc = mosquitto_loop_write(v->pm, 1);
	if (rc == MOSQ_ERR_SUCCESS)
		rc = mosquitto_loop_misc(v->pm);
	/* Lost: the next broker of the list (the session's readings in
	 * flight go out again after its CONNACK). */
	if (rc != MOSQ_ERR_SUCCESS)
		v->pconnected = 0;
	if (rc != MOSQ_ERR_SUCCESS && !v->closing &&
	    mq_connect(v->pm, &v->po, 1, 1))
		v->pretry = mono() + 1;
}

/*
 * Backpressure: while max_owed readings and events are owed, the frames
 * session is not read (its keepalive still goes out); 1 then.
 */
static int backpressure(struct vf *v)
{
	size_t owed = outbox_owed(v->ob);

	if (owed > v->peak_owed)
		v->peak_owed = owed;
	if (!v->paused && owed >= v->mo->max_owed) {
		v->paused = 1;
		v->pauses++;
	} else if (v->paused && owed < v->mo->max_owed) {
		v->paused = 0;
	}
	return v->paused;
}

/*
 * The two sessions' sockets for poll(): @p[0] the frames', @p[1] the
 * readings'. Before its CONNACK the frames session is read whatever is
 * owed: the readings' session connects only after it, so an outbox
 * taken up at --max-owed or more (a restart, a shard taken from a
 * verifier killed while paused) would otherwise never drain, and the
 * verifier would wait for ever (bench-fleet (b), 31,968 owed).
 */
static nfds_t poll_set(struct vf *v, struct pollfd p[2])
{
	nfds_t n = 0;

	p[0] = (struct pollfd){ .fd = mosquitto_socket(v->m) };
	if (!backpressure(v) || !v->connected)
		p[0].events |= POLLIN;
	if (mosquitto_want_write(v->m))
		p[0].events |= POLLOUT;
	if (p[0].events)
		n = 1;
	p[n] = (struct pollfd){ .fd = mosquitto_socket(v->pm), .events = POLLIN };
	if (p[n].fd >= 0)
		n++;
	return n;
}

/*
 * One round: read what the broker sent (frames, unless backpressure holds
 * them back; the readings' PUBACKs), feed the frames, make everything
 * they produced durable, publish it, and only then write what
 * libmosquitto queued on the frames session: the frames' PUBACKs.
 */
static void round_trip(struct vf *v, int timeout_ms)
{
	int fd = mosquitto_socket(v->m), i, rc = MOSQ_ERR_SUCCESS;
	struct pollfd p[2];
	nfds_t n = poll_set(v, p);

	if (poll(p, n, timeout_ms) > 0 && p[0].fd == fd &&
	    (p[0].revents & ~POLLOUT))
		for (i = 0; i < READS_PER_ROUND && rc == MOSQ_ERR_SUCCESS; i++) {
			rc = mosquitto_loop_read(v->m, 1);
			if (!readable(fd))
				break;
		}
	flush_batch(v);
	if (!v->fatal)
		commit(v);	/* the events of rejected units */
	if (v->fence && diamond_fence_stale(v->fence))
		v->fatal = -ESTALE;	/* nothing fed, written or acknowledged */
	if (v->fatal)
		return;		/* nothing more acknowledged */
	outbox_send(v->ob, pub, v);
	pub_step(v);
	if (rc == MOSQ_ERR_SUCCESS && mosquitto_want_write(v->m))
		rc = mosquitto_loop_write(v->m, 1);
	if (rc == MOSQ_ERR_SUCCESS)
		rc = mosquitto_loop_misc(v->m);
	/* The first connection failed (TLS: a certificate that does not
	 * verify): a setup error. */
	if (rc != MOSQ_ERR_SUCCESS && !v->was_connected && !v->never)
		v->never = mq_early_error(rc);
	/* On an error libmosquitto closed the socket: run() reconnects. */
	if (rc != MOSQ_ERR_SUCCESS && v->connected) {
		olog(OLOG_SOURCE, NULL, "broker connection lost (%s); reconnecting",
		     mosquitto_strerror(rc));
		v->connected = 0;
	}
}

int vf_socket(const struct vf *v)
{
	return mosquitto_socket(v->m);
}

int vf_out_socket(const struct vf *v)
{
	return mosquitto_socket(v->pm);
}

int vf_error(const struct vf *v)
{
	return v->fatal;
}

const char *vf_failure(const struct vf *v)
{
	return v->fatal_what;
}

size_t vf_owed(const struct vf *v)
{
	return outbox_owed(v->ob);
}

uint64_t vf_refused(const struct vf *v)
{
	return v->refused;
}

/* Read at most READS_PER_ROUND packets, waiting @timeout_ms for one. */
static int read_some(struct vf *v, int timeout_ms)
{
	int fd = mosquitto_socket(v->m), i, rc = MOSQ_ERR_SUCCESS;
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (fd < 0 || poll(&p, 1, timeout_ms) <= 0)
		return rc;
	for (i = 0; i < READS_PER_ROUND && rc == MOSQ_ERR_SUCCESS; i++) {
		rc = mosquitto_loop_read(v->m, 1);
		if (!readable(fd))
			break;
	}
	return rc;
}

/*
 * The last round of a handover (fleet.c, "Rebalancing"): the frames the
 * broker already sent are read (they would come again to the next holder
 * otherwise), fed, and made durable: the spool fdatasync'd by the feed,
 * the outbox by commit(). Only then are their PUBACKs and the readings
 * written. From here on nothing is fed, and nothing more is written on
 * this session, so every frame read after this is the next holder's.
 */
int vf_handover(struct vf *v, uint64_t *fed)
{
	uint64_t before = v->taken;
	int rc;

	*fed = 0;
	if (v->fatal)
		return v->fatal;
	rc = read_some(v, HANDOVER_READ_MS);
	*fed = v->taken - before;
	v->closing = 1;
	flush_batch(v);
	if (!v->fatal)
		commit(v);
	if (v->fence && diamond_fence_stale(v->fence))
		v->fatal = -ESTALE;
	if (v->fatal)
		return v->fatal;	/* nothing acknowledged */
	outbox_send(v->ob, pub, v);
	pub_step(v);
	if (rc == MOSQ_ERR_SUCCESS && mosquitto_want_write(v->m))
		mosquitto_loop_write(v->m, 1);
	return 0;
}

/*
 * After vf_handover(): the broker's PUBACKs for the outbox, read on the
 * readings' session, and the rest of the outbox's window published there;
 * the frames session is neither read nor written again (frames read
 * there would be left, never acknowledged).
 */
void vf_drain(struct vf *v)
{
	if (v->fatal || mosquitto_socket(v->pm) < 0)
		return;
	outbox_send(v->ob, pub, v);
	pub_step(v);
}

/* A handed-over session whose outbox is acknowledged, or gone. */
int vf_drained(const struct vf *v)
{
	return v->fatal || mosquitto_socket(v->pm) < 0 || !outbox_owed(v->ob);
}

uint64_t vf_left(const struct vf *v)
{
	return v->left;
}

void vf_step(struct vf *v, int timeout_ms)
{
	double t = mono();

	if (v->fatal)
		return;
	if (mosquitto_socket(v->m) >= 0) {
		round_trip(v, timeout_ms);
		return;
	}
	v->connected = 0;
	if (t >= v->retry) {
		/* A fleet's shard: its session only while the shard is ours. */
		if (v->fence && diamond_fence_check(v->fence)) {
			v->fatal = -ESTALE;
			return;
		}
		/* The next broker of the list (a cluster's next node). */
		if (mq_connect(v->m, v->mo, 1, 1))
			v->retry = t + 1;
	}
	if (mosquitto_socket(v->m) < 0 && timeout_ms)
		usleep(100000);
}

/*
 * Until stopped: the broker's rounds, and when the connection is gone,
 * the next broker of the list (every second once none took it).
 */
static void run(struct vf *v)
{
	double t, end = 0, first = mono() + MQ_CONNECT_SECONDS;

	while (!v->fatal && !v->never) {
		t = mono();
		if (!v->was_connected && t >= first)
			v->never = "no CONNACK";
		if (stop && !end)
			end = t + DRAIN_SECONDS;
		if (end && (t >= end || !outbox_owed(v->ob)))
			break;
		vf_step(v, 200);
	}
}

static void summary(const struct vf *v)
{
	struct diamond_gw_stats st;

	diamond_gw_stats(v->gw, &st);
	olog_info(1, NULL, "open --mqtt: %s path, %llu messages, %llu frames taken, "
		  "%llu dropped (%llu topic, %llu envelope, %llu frame, %llu "
		  "misfiled); %llu epochs verified, %llu rejected, %llu groups "
		  "released, %llu groups rejected; %llu readings, %llu events "
		  "published, %zu not yet acknowledged (kept in the outbox); at "
		  "most %zu owed, %llu pauses at --max-owed %zu%s",
		  v->kernel ? "kernel" : "software",
		  (unsigned long long)v->messages, (unsigned long long)v->taken,
		  (unsigned long long)(v->bad_topic + v->bad_envelope +
				       v->bad_frame + v->misfiled),
		  (unsigned long long)v->bad_topic,
		  (unsigned long long)v->bad_envelope,
		  (unsigned long long)v->bad_frame,
		  (unsigned long long)v->misfiled,
		  (unsigned long long)st.verified,
		  (unsigned long long)st.rejected,
		  (unsigned long long)st.groups_verified,
		  (unsigned long long)st.groups_rejected,
		  (unsigned long long)v->readings,
		  (unsigned long long)v->events, outbox_owed(v->ob),
		  v->peak_owed, (unsigned long long)v->pauses, v->mo->max_owed,
		  v->fatal == -ESTALE ? "; the shard is a newer holder's" : "");
}

/* The packet receiver of the directory's packet-mode devices, if any. */
static int setup_packets(struct vf *v, const struct diamond_gw_opts *go)
{
	struct vpk_out o = { .ob = v->ob, .prefix = v->mo->prefix,
			     .shards = v->mo->shards, .stage = commit,
			     .arg = v };
	const char *why;
	int rc = vpk_open(&v->pk, go->state_dir,
			  go->backend == DIAMOND_BACKEND_SOFTWARE, v->fence,
			  &o, &why);

	if (rc) {
		olog(OLOG_SETUP, NULL, "state directory %s: %s: %s",
		     go->state_dir, why, diamond_strerror(rc));
		return -1;
	}
	if (v->pk)
		olog_info(1, NULL, "%zu packet-mode devices: their packets "
			  "too", vpk_devices(v->pk));
	return 0;
}

/* The gateway, its outbox and stage, the spool taken up. */
static int setup_gw(struct vf *v, const struct diamond_gw_opts *go)
{
	struct diamond_gw_cbs cbs = { .event = on_event, .record_ad = on_reading,
				      .arg = v };
	char msg[512] = "";
	int rc = diamond_gw_new(&v->gw, go, &cbs, msg, sizeof(msg));

	if (rc) {
		olog(OLOG_SETUP, NULL, "%s", *msg ? msg : diamond_strerror(rc));
		return -1;
	}
	if (*msg)
		olog_info(1, NULL, "%s", msg);
	v->kernel = go->backend == DIAMOND_BACKEND_KERNEL;
	rc = outbox_open(&v->ob, go->state_dir);
	if (rc) {
		olog(OLOG_SETUP, NULL, "outbox in %s/mqtt: %s", go->state_dir,
		     strerror(-rc));
		return -1;
	}
	if (v->fence) {
		diamond_gw_set_fence(v->gw, v->fence);
		outbox_set_fence(v->ob, v->fence);
	}
	diamond_gw_set_stage(v->gw, commit, v);
	if (setup_packets(v, go))
		return -1;
	rc = diamond_gw_resume(v->gw);
	if (rc > 0)
		olog_info(1, NULL, "%d open epochs taken up from the spool", rc);
	if (rc < 0)
		fail(v, rc, *diamond_gw_failure(v->gw) ?
		     diamond_gw_failure(v->gw) : "spool");
	else
		commit(v);
	if (v->fatal) {
		olog(OLOG_SETUP, NULL, "%s: %s", v->fatal_what,
		     diamond_strerror(v->fatal));
		return -1;
	}
	return 0;
}

static int setup_client(struct vf *v, struct mq_opts *mo, const char *shards)
{
	if (!mo->client_id) {
		snprintf(v->id, sizeof(v->id), "diamond-verifier-%s-of-%u",
			 shards ? shards : "all", (unsigned int)mo->shards);
		mo->client_id = v->id;
	}
	v->m = mq_client(mo, 0, v);
	if (!v->m)
		return -1;
	v->po = *mo;
	snprintf(v->pid, sizeof(v->pid), "%s-out", mo->client_id);
	v->po.client_id = v->pid;
	/* Persistent too: the readings in flight go out again after a
	 * reconnect under the message IDs the outbox knows them by. */
	v->pm = mq_client(&v->po, 0, v);
	if (!v->pm)
		return -1;
	mosquitto_int_option(v->pm, MOSQ_OPT_SEND_MAXIMUM, OUTBOX_WINDOW);
	mosquitto_connect_with_flags_callback_set(v->pm, on_pconnect);
	mosquitto_publish_callback_set(v->pm, on_publish);
	/* Packets queued, written only by mosquitto_loop_write(): see above. */
	mosquitto_threaded_set(v->m, true);
	mosquitto_connect_with_flags_callback_set(v->m, on_connect);
	mosquitto_message_callback_set(v->m, on_message);
	mosquitto_subscribe_callback_set(v->m, on_subscribe);
	return mq_connect(v->m, mo, 0, 0);
}

void vf_stop(struct vf *v, int graceful)
{
	if (!v)
		return;
	if (v->started)
		summary(v);
	if (v->started)
		vpk_summary(v->pk);
	if (v->m) {
		/* Fatal or handed over: the socket closes with the PUBACKs
		 * still queued. */
		if (graceful && !v->fatal && !v->closing &&
		    mosquitto_disconnect(v->m) == MOSQ_ERR_SUCCESS)
			mosquitto_loop_write(v->m, 1);
		mosquitto_destroy(v->m);
	}
	vpk_close(v->pk);
	if (v->pm) {
		if (graceful && !v->fatal &&
		    mosquitto_disconnect(v->pm) == MOSQ_ERR_SUCCESS)
			mosquitto_loop_write(v->pm, 1);
		mosquitto_destroy(v->pm);
	}
	outbox_close(v->ob);
	diamond_gw_free(v->gw);
	free(v->batch);
	free(v->mine);
	free(v);
}

struct vf *vf_start(const struct diamond_gw_opts *go, struct mq_opts *mo,
		    const char *shards, struct diamond_fence *fence,
		    int *usage)
{
	struct vf *v = calloc(1, sizeof(*v));

	*usage = 0;
	if (!v)
		return NULL;
	v->mo = mo;
	v->fence = fence;
	v->mine = calloc(mo->shards / 8 + 1, 1);
	v->batch = malloc(BATCH_BYTES);
	if (!v->mine || !v->batch)
		goto fail;
	if (shards ? parse_shards(v, shards) :
	    (memset(v->mine, 0xff, mo->shards / 8 + 1), 0)) {
		err_msg("--shard '%s': shards below --shards, as 0,2,5-7", shards);
		*usage = 1;
		goto fail;
	}
	if (setup_gw(v, go) || setup_client(v, mo, shards))
		goto fail;
	outbox_send(v->ob, pub, v);	/* what an earlier run still owed */
	v->started = 1;
	return v;
fail:
	v->fatal = -EIO;
	vf_stop(v, 0);
	return NULL;
}

int open_mqtt(const struct diamond_gw_opts *go, struct mq_opts *mo,
	      const char *shards)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int usage, rc = 0;
	struct vf *v = vf_start(go, mo, shards, NULL, &usage);

	if (!v)
		return usage ? EXIT_USAGE : EXIT_SETUP;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	run(v);
	if (v->never) {
		mq_failed(mo, v->never);
		v->started = 0;		/* never connected: no summary */
		rc = EXIT_SETUP;
	} else if (v->fatal) {
		olog(OLOG_SETUP, NULL, "stopping, frames not acknowledged: %s%s%s",
		     v->fatal_what, *v->fatal_what ? ": " : "",
		     diamond_strerror(v->fatal));
		rc = EXIT_SETUP;
	}
	vf_stop(v, 1);
	return rc;
}
