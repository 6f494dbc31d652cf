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

#define BATCH_BYTES	(256u << 10)	/* frames fed to the gateway at once */
#define READS_PER_ROUND	64		/* packets read before a sync */
/* Outbox messages the broker owes a PUBACK for: below 65,535 message IDs. */
#define OWED_MAX	60000
#define DRAIN_SECONDS	5		/* at the end: waiting for PUBACKs */

static volatile sig_atomic_t stop;

struct vf {
	struct diamond_gw *gw;
	struct outbox *ob;
	struct mosquitto *m;
	const struct mq_opts *mo;
	uint8_t *mine;			/* bit s: shard s is ours */
	uint8_t *batch;
	size_t blen;
	int fatal;			/* -errno: stop, acknowledge nothing more */
	char fatal_what[4400];		/* the file it is about, or "" */
	int connected;
	int ever;			/* the first CONNACK accepted us */
	const char *never;		/* why the first connection failed */
	uint64_t messages, taken, bad_topic, bad_envelope, bad_frame,
		 misfiled, readings, events;
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
	char topic[OUTBOX_MAX_TOPIC], *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);
	int rc = -ENOMEM;

	if (f) {
		json(f, x);
		if (fclose(f) == 0 && n && p[n - 1] == '\n')
			n--;
		snprintf(topic, sizeof(topic), "%s/%s/%u/%u", v->mo->prefix,
			 what, (unsigned int)(dev % v->mo->shards),
			 (unsigned int)dev);
		rc = p ? outbox_add(v->ob, topic, p, n) : -ENOMEM;
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
 * The frames read, to the gateway; it fails when it could not make what
 * they brought durable (the spool, a state file: diamond_gw_failure()).
 */
static void flush_batch(struct vf *v)
{
	int rc = v->blen ? diamond_gw_feed(v->gw, v->batch, v->blen) : 0;

	if (rc < 0)
		fail(v, rc, diamond_gw_failure(v->gw));
	v->blen = 0;
}

/* P/frames/<shard>/<id>: the shard, or -1 for any other topic. */
static long topic_shard(const struct vf *v, const char *t)
{
	size_t n = strlen(v->mo->prefix);
	const char *slash;
	char id[MQ_MAX_ID + 1];
	uint64_t s;
	char num[12];

	if (strncmp(t, v->mo->prefix, n) || strncmp(t + n, "/frames/", 8))
		return -1;
	t += n + 8;
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

	(void)m;
	v->messages++;
	shard = topic_shard(v, msg->topic);
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
	v->taken++;
}

static void on_publish(struct mosquitto *m, void *arg, int mid)
{
	struct vf *v = arg;

	(void)m;
	outbox_acked(v->ob, mid);
}

static void on_connect(struct mosquitto *m, void *arg, int rc)
{
	struct vf *v = arg;
	char topic[600];
	uint32_t s;

	if (rc && !v->ever) {	/* this client is refused: a setup error */
		v->never = mosquitto_connack_string(rc);
		return;
	}
	if (rc) {
		olog(OLOG_SOURCE, NULL, "broker refused the connection: %s",
		     mosquitto_connack_string(rc));
		return;
	}
	v->connected = 1;
	v->ever = 1;
	for (s = 0; s < v->mo->shards; s++) {
		if (!ours(v, s))
			continue;
		snprintf(topic, sizeof(topic), "%s/frames/%u/+", v->mo->prefix,
			 (unsigned int)s);
		mosquitto_subscribe(m, NULL, topic, 1);
	}
}

static int pub(void *arg, const char *topic, const void *p, size_t len,
	       int *mid)
{
	struct vf *v = arg;

	return mosquitto_publish(v->m, mid, topic, (int)len, p, 1, false) !=
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
 * One round: read what the broker sent (frames, PUBACKs), feed the
 * frames, make everything they produced durable, publish it, and only
 * then write what libmosquitto queued: the frames' PUBACKs among it.
 */
static void round_trip(struct vf *v, int timeout_ms)
{
	int fd = mosquitto_socket(v->m), i, rc = MOSQ_ERR_SUCCESS;
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (mosquitto_want_write(v->m))
		p.events |= POLLOUT;
	if (poll(&p, 1, timeout_ms) > 0 && (p.revents & ~POLLOUT))
		for (i = 0; i < READS_PER_ROUND && rc == MOSQ_ERR_SUCCESS; i++) {
			rc = mosquitto_loop_read(v->m, 1);
			if (!readable(fd))
				break;
		}
	flush_batch(v);
	if (!v->fatal)
		commit(v);	/* the events of rejected units */
	if (v->fatal)
		return;		/* nothing more acknowledged */
	outbox_send(v->ob, pub, v);
	if (outbox_owed(v->ob) > OWED_MAX)	/* the broker takes no readings */
		fail(v, -ENOBUFS, "");
	if (rc == MOSQ_ERR_SUCCESS && mosquitto_want_write(v->m))
		rc = mosquitto_loop_write(v->m, 1);
	if (rc == MOSQ_ERR_SUCCESS)
		rc = mosquitto_loop_misc(v->m);
	/* The first connection failed (TLS: a certificate that does not
	 * verify): a setup error. */
	if (rc != MOSQ_ERR_SUCCESS && !v->ever && !v->never)
		v->never = mq_early_error(rc);
	/* On an error libmosquitto closed the socket: run() reconnects. */
	if (rc != MOSQ_ERR_SUCCESS && v->connected) {
		olog(OLOG_SOURCE, NULL, "broker connection lost (%s); reconnecting",
		     mosquitto_strerror(rc));
		v->connected = 0;
	}
}

static void run(struct vf *v)
{
	double retry = 0, t, end = 0, first = mono() + MQ_CONNECT_SECONDS;

	while (!v->fatal && !v->never) {
		t = mono();
		if (!v->ever && t >= first)
			v->never = "no CONNACK";
		if (stop && !end)
			end = t + DRAIN_SECONDS;
		if (end && (t >= end || !outbox_owed(v->ob)))
			break;
		if (mosquitto_socket(v->m) < 0) {
			v->connected = 0;
			if (t >= retry && mosquitto_reconnect(v->m) != MOSQ_ERR_SUCCESS)
				retry = t + 1;
			if (mosquitto_socket(v->m) < 0)
				usleep(100000);
			continue;
		}
		round_trip(v, 200);
	}
}

static void summary(const struct vf *v)
{
	struct diamond_gw_stats st;

	diamond_gw_stats(v->gw, &st);
	olog_info(1, NULL, "open --mqtt: %llu messages, %llu frames taken, "
		  "%llu dropped (%llu topic, %llu envelope, %llu frame, %llu "
		  "misfiled); %llu epochs verified, %llu rejected, %llu groups "
		  "released, %llu groups rejected; %llu readings, %llu events "
		  "published, %zu not yet acknowledged (kept in the outbox)",
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
		  (unsigned long long)v->events, outbox_owed(v->ob));
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
	rc = outbox_open(&v->ob, go->state_dir);
	if (rc) {
		olog(OLOG_SETUP, NULL, "outbox in %s/mqtt: %s", go->state_dir,
		     strerror(-rc));
		return -1;
	}
	diamond_gw_set_stage(v->gw, commit, v);
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

static int setup_client(struct vf *v, struct mq_opts *mo, char *id,
			size_t idsize, const char *shards)
{
	if (!mo->client_id) {
		snprintf(id, idsize, "diamond-verifier-%s-of-%u",
			 shards ? shards : "all", (unsigned int)mo->shards);
		mo->client_id = id;
	}
	v->m = mq_client(mo, 0, v);
	if (!v->m)
		return -1;
	/* Packets queued, written only by mosquitto_loop_write(): see above. */
	mosquitto_threaded_set(v->m, true);
	mosquitto_connect_callback_set(v->m, on_connect);
	mosquitto_message_callback_set(v->m, on_message);
	mosquitto_publish_callback_set(v->m, on_publish);
	return mq_connect(v->m, mo);
}

int open_mqtt(const struct diamond_gw_opts *go, struct mq_opts *mo,
	      const char *shards)
{
	struct vf v = { .mo = mo };
	struct sigaction sa = { .sa_handler = on_signal };
	char id[128];
	int rc = EXIT_SETUP;

	v.mine = calloc(mo->shards / 8 + 1, 1);
	v.batch = malloc(BATCH_BYTES);
	if (!v.mine || !v.batch)
		goto out;
	if (shards ? parse_shards(&v, shards) :
	    (memset(v.mine, 0xff, mo->shards / 8 + 1), 0)) {
		err_msg("--shard '%s': shards below --shards, as 0,2,5-7", shards);
		rc = EXIT_USAGE;
		goto out;
	}
	if (setup_gw(&v, go) || setup_client(&v, mo, id, sizeof(id), shards))
		goto out;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	outbox_send(v.ob, pub, &v);	/* what an earlier run still owed */
	run(&v);
	rc = 0;
	if (v.never) {
		mq_failed(mo, v.never);
		rc = EXIT_SETUP;
		goto out;
	}
	if (v.fatal) {
		olog(OLOG_SETUP, NULL, "stopping, frames not acknowledged: %s%s%s",
		     v.fatal_what, *v.fatal_what ? ": " : "",
		     v.fatal == -ENOBUFS ? "the broker does not acknowledge readings" :
		     diamond_strerror(v.fatal));
		rc = EXIT_SETUP;
	}
	summary(&v);
out:
	if (v.m) {
		/* Fatal: the socket closes with the PUBACKs still queued. */
		if (!v.fatal && mosquitto_disconnect(v.m) == MOSQ_ERR_SUCCESS)
			mosquitto_loop_write(v.m, 1);
		mosquitto_destroy(v.m);
	}
	outbox_close(v.ob);
	diamond_gw_free(v.gw);
	free(v.batch);
	free(v.mine);
	return rc;
}
