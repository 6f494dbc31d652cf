// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamondctl forward: the radio side of a fleet (Documentation/
 * userspace.rst, "Fleet on MQTT"). Frames heard on UDP, a serial line, a
 * file, or from a stock LoRa gateway over the Semtech packet forwarder
 * protocol (semtech.c) are published to the broker unchanged, each in an
 * envelope with this gateway's ID and its receive metadata (mqtt.c), QoS
 * 1, on P/frames/<shard>/<gateway> with shard = device ID mod N. The
 * device ID is read from the frame's header; bytes that do not parse as a
 * frame are dropped and counted. It holds no key and does no crypto: a
 * forwarder is trusted for nothing, and the verifier checks every frame as
 * radio input.
 *
 * With --packet the radio carries packet-radio packets (spec section 14)
 * instead: a UDP datagram or an rxpk's data is one packet, a stream gives
 * each after a 1-byte length (0: no packet, a firmware's idle link). Each
 * goes unchanged to P/packets/<shard>/<gateway>, shard = its first byte
 * mod N: the low byte of the device's short address. Addresses are
 * prefix-free and of a width only the verifier knows (from its state
 * directory), so that byte is all a keyless, configless forwarder can
 * read that is the same in every packet of a device; the verifier puts a
 * packet-mode device in the shard of its address's low byte.
 *
 * --broker may name several nodes of one broker cluster: when the
 * connection drops, the network thread (net_thread()) connects to the
 * next. libmosquitto keeps the frames published and not yet acknowledged
 * and sends them again after the CONNACK, so a frame the old node stored
 * but whose PUBACK was lost reaches the broker twice; the verifier merges
 * copies by the copy rule, so that costs nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <mosquitto.h>

#include "mqtt.h"
#include "open.h"
#include "semtech.h"

#define DEFAULT_MAX_QUEUE	10000	/* frames not yet acknowledged */
#define DRAIN_SECONDS		30	/* at the end: waiting for PUBACKs */
#define QUIT_SECONDS		2	/* then for the DISCONNECT to go out */

static volatile sig_atomic_t stop;

struct fwd {
	struct mq_opts mo;
	const char *gw_id;
	struct mosquitto *m;
	struct diamond_reader *rd;
	unsigned long max_queue;
	int wait_queue;			/* --input: wait at max_queue, drop none */
	atomic_ulong outstanding;	/* published, not yet acknowledged */
	atomic_int connected;		/* set by the network thread */
	atomic_int refused;		/* its last CONNACK code, or 0 */
	atomic_int quit;		/* the network thread ends */
	atomic_uint at;			/* the broker of the last CONNACK */
	atomic_uint drops;		/* connections lost */
	pthread_t net;
	int net_started;
	uint64_t frames, full, errors, junk_bytes, bad_headers, gwmp_bad;
	int packet;			/* --packet: packets, not frames */
	uint8_t pkt[DIAMOND_PKT_MAX];	/* a stream's packet, being read */
	size_t pkt_want, pkt_have;	/* its length (0: the length byte next) */
	uint64_t bad_packets;		/* datagrams of no packet's length */
};

static void help(FILE *f)
{
	fprintf(f,
		"usage: diamondctl forward --broker HOST[:PORT][,...] --gateway-id ID\n"
		"                          (--udp PORT | --semtech PORT | --serial DEV |\n"
		"                           --input FILE) [--bind ADDR] [--shards N]\n"
		"                          [--topic-prefix P] [--user NAME] [--max-queue N]\n"
		"                          [--packet]\n"
		"                          [--cafile FILE [--cert FILE --key FILE]]\n\n"
		"Publish every frame heard, unchanged, with this gateway's ID and its\n"
		"receive metadata, QoS 1, on P/frames/<device mod N>/<ID>. No key, no\n"
		"crypto: bytes that are not a frame are dropped and counted.\n\n"
		"  --broker HOST[:PORT][,HOST[:PORT]...]  the MQTT broker (port 1883\n"
		"                    by default, 8883 with --cafile); several\n"
		"                    addresses are the nodes of one cluster, tried\n"
		"                    in turn when the connection drops\n"
		"  --gateway-id ID   this gateway, [A-Za-z0-9._-], at most 64\n"
		"  --udp PORT        frames in UDP datagrams, each parsed on its own\n"
		"  --semtech PORT    a LoRa gateway's Semtech UDP packet forwarder\n"
		"                    (protocol 2): PUSH_DATA answered with PUSH_ACK,\n"
		"                    each rxpk's data one datagram of frames\n"
		"  --serial DEV      a byte stream of frames; reconnects\n"
		"  --input FILE      a frame file; waits for every PUBACK, then exits\n"
		"  --bind ADDR       the address --udp and --semtech bind (127.0.0.1)\n"
		"  --shards N        the shard count of the fleet (default 1)\n"
		"  --topic-prefix P  the topics' first level (default diamond)\n"
		"  --user NAME       broker username; the password is taken from\n"
		"                    $DIAMOND_MQTT_PASSWORD\n"
		"  --packet          the radio carries packet-radio packets (spec 14):\n"
		"                    a datagram or an rxpk is one packet, a stream\n"
		"                    gives each after a 1-byte length (0: none);\n"
		"                    each to P/packets/<first byte mod N>/<ID>\n"
		"  --max-queue N     frames not yet acknowledged by the broker before\n"
		"                    new ones are dropped and counted (default 10000);\n"
		"                    --input waits there instead, dropping none\n"
		MQ_TLS_HELP "\n"
		"Exit status: 0; 2 usage; 3 setup (broker: not reached, TLS, refused;\n"
		"input; --input: frames the broker did not acknowledge).\n");
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void on_publish(struct mosquitto *m, void *arg, int mid)
{
	struct fwd *fw = arg;

	(void)m;
	(void)mid;
	atomic_fetch_sub(&fw->outstanding, 1);
}

/* The network thread only sets flags: messages come from run(). */
static void on_connect(struct mosquitto *m, void *arg, int rc)
{
	struct fwd *fw = arg;

	(void)m;
	atomic_store(&fw->at, fw->mo.at);	/* this thread's mq_connect() */
	atomic_store(&fw->refused, rc);
	atomic_store(&fw->connected, rc == 0);
}

static void on_disconnect(struct mosquitto *m, void *arg, int rc)
{
	struct fwd *fw = arg;

	(void)m;
	(void)rc;
	atomic_store(&fw->connected, 0);
	atomic_fetch_add(&fw->drops, 1);
}

/*
 * Say when the broker connection went away, came back or was refused:
 * counted, since a failover may be over before run() looks again.
 */
static void link_news(struct fwd *fw, int *was, unsigned int *drops)
{
	int now = atomic_load(&fw->connected);
	int refused = atomic_exchange(&fw->refused, 0);
	unsigned int d = atomic_load(&fw->drops);

	if (refused)
		olog(OLOG_SOURCE, NULL, "broker refused the connection: %s",
		     mosquitto_connack_string(refused));
	else if (d != *drops)
		olog(OLOG_SOURCE, NULL, "broker connection lost; reconnecting");
	if (now && (!*was || d != *drops))
		olog_info(d ? 1 : 2, NULL, "connected to the broker at %s",
			  mq_broker_name(&fw->mo, atomic_load(&fw->at)));
	*was = now;
	*drops = d;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* @n bytes (a frame or a packet) in an envelope, to P/@kind/@shard/ID. */
static void publish_env(struct fwd *fw, const char *kind, uint32_t shard,
			const uint8_t *p, size_t n, const char *meta)
{
	static uint8_t env[MQ_ENV_MAX];
	char topic[512];
	size_t len;
	int rc;

	/* A file has time: it waits for the broker (the network thread's
	 * PUBACKs) where the radio, which cannot wait, drops. */
	while (fw->wait_queue && !stop &&
	       atomic_load(&fw->outstanding) >= fw->max_queue)
		usleep(1000);
	if (atomic_load(&fw->outstanding) >= fw->max_queue) {
		fw->full++;
		return;
	}
	len = mq_wrap(env, sizeof(env), fw->gw_id, meta, p, n);
	if (!len) {
		fw->errors++;
		return;
	}
	snprintf(topic, sizeof(topic), "%s/%s/%u/%s", fw->mo.prefix, kind,
		 (unsigned int)shard, fw->gw_id);
	atomic_fetch_add(&fw->outstanding, 1);
	rc = mosquitto_publish(fw->m, NULL, topic, (int)len, env, 1, false);
	if (rc != MOSQ_ERR_SUCCESS) {
		atomic_fetch_sub(&fw->outstanding, 1);
		fw->errors++;
		return;
	}
	fw->frames++;
}

/* One parsed frame, re-serialised byte for byte, to its shard's topic. */
static void publish(struct fwd *fw, const struct diamond_frame *f,
		    const char *meta)
{
	static uint8_t frame[DIAMOND_FRAME_HDR + 65535];
	int n = diamond_frame_write(frame, sizeof(frame), f);

	if (n <= 0) {
		fw->errors++;
		return;
	}
	publish_env(fw, "frames", f->device_id % fw->mo.shards, frame,
		    (size_t)n, meta);
}

/* One packet to its shard's topic: the shard of its first byte. */
static void publish_packet(struct fwd *fw, const uint8_t *p, size_t n,
			   const char *meta)
{
	publish_env(fw, "packets", p[0] % fw->mo.shards, p, n, meta);
}

/*
 * --packet: @len bytes, a datagram (@datagram: one packet, or dropped and
 * counted) or a stream's next bytes (each packet after its length byte).
 */
static void take_packets(struct fwd *fw, const uint8_t *p, size_t len,
			 const char *meta, int datagram)
{
	size_t k;

	if (datagram) {
		if (len && len <= DIAMOND_PKT_MAX)
			publish_packet(fw, p, len, meta);
		else
			fw->bad_packets++;
		return;
	}
	for (k = 0; k < len; k++) {
		if (!fw->pkt_want) {
			fw->pkt_want = p[k];	/* 0: the idle link */
			fw->pkt_have = 0;
			continue;
		}
		fw->pkt[fw->pkt_have++] = p[k];
		if (fw->pkt_have == fw->pkt_want) {
			publish_packet(fw, fw->pkt, fw->pkt_have, meta);
			fw->pkt_want = 0;
		}
	}
}

/* The frames in @len bytes (@datagram: these bytes alone). */
static void take(struct fwd *fw, const uint8_t *p, size_t len,
		 const char *meta, int datagram)
{
	struct diamond_frame f;
	size_t skipped;
	int rc;

	if (fw->packet) {
		take_packets(fw, p, len, meta, datagram);
		return;
	}
	if (datagram)
		diamond_reader_reset(fw->rd);
	if (diamond_reader_feed(fw->rd, p, len)) {
		fw->errors++;
		return;
	}
	while ((rc = diamond_reader_next(fw->rd, &f, &skipped)) != 0) {
		if (rc == -EILSEQ)
			fw->junk_bytes += skipped;
		else if (rc < 0)
			fw->bad_headers++;
		else
			publish(fw, &f, meta);
	}
	if (datagram) {
		fw->junk_bytes += diamond_reader_pending(fw->rd);
		diamond_reader_reset(fw->rd);
	}
}

static void on_rxpk(void *arg, const uint8_t *phy, size_t len,
		    const char *meta)
{
	take(arg, phy, len, meta, 1);
}

/* Datagrams: frames (--udp) or a packet forwarder's (--semtech). */
static int pump_udp(struct fwd *fw, int fd, int semtech)
{
	static uint8_t buf[65536];
	struct sockaddr_storage from;
	socklen_t flen = sizeof(from);
	uint8_t ack[4];
	size_t acklen;
	char meta[64];
	ssize_t n;

	n = recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT,
		     (struct sockaddr *)&from, &flen);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	if (!semtech) {
		snprintf(meta, sizeof(meta), "{\"src\":\"udp\",\"rx_ms\":%llu}",
			 (unsigned long long)now_ms());
		take(fw, buf, (size_t)n, meta, 1);
		return 0;
	}
	if (gwmp_datagram(buf, (size_t)n, ack, &acklen, on_rxpk, fw) < 0)
		fw->gwmp_bad++;
	if (acklen)
		sendto(fd, ack, acklen, MSG_DONTWAIT, (struct sockaddr *)&from,
		       flen);
	return 0;
}

/* A stream (--serial, --input): 0 more, 1 ended (file), -1 error. */
static int pump_stream(struct fwd *fw, struct src *s)
{
	static uint8_t buf[65536];
	char meta[64];
	ssize_t n = read(s->fd, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (s->kind == SRC_SERIAL && n <= 0) {
		olog(OLOG_SOURCE, NULL, "%s: gone; reconnecting", s->name);
		src_close(s);
		diamond_reader_reset(fw->rd);
		fw->pkt_want = 0;	/* a packet cut short: never published */
		/* A FIFO without a writer opens at once and hangs up again. */
		usleep(200000);
		return 0;
	}
	if (n <= 0)
		return n ? -1 : 1;
	if (s->kind == SRC_SERIAL)
		snprintf(meta, sizeof(meta),
			 "{\"src\":\"serial\",\"rx_ms\":%llu}",
			 (unsigned long long)now_ms());
	else
		snprintf(meta, sizeof(meta), "{\"src\":\"file\"}");
	take(fw, buf, (size_t)n, meta, 0);
	return 0;
}

static int run(struct fwd *fw, struct src *s, int semtech)
{
	struct pollfd p;
	int rc = 0, n, was = 0;
	unsigned int drops = 0;

	while (!stop && !rc) {
		link_news(fw, &was, &drops);
		if (s->fd < 0 && !src_reopen(s)) {
			usleep(200000);	/* the serial port is still away */
			continue;
		}
		p = (struct pollfd){ .fd = s->fd, .events = POLLIN };
		n = poll(&p, 1, 200);
		if (n <= 0)
			continue;
		rc = s->kind == SRC_UDP ? pump_udp(fw, s->fd, semtech) :
		     pump_stream(fw, s);
	}
	return rc < 0 ? -1 : 0;
}

/* At the end: the broker's PUBACK for everything published; 0, or -1 and a note. */
static int drain(struct fwd *fw)
{
	int i;

	for (i = 0; i < DRAIN_SECONDS * 20 && atomic_load(&fw->outstanding);
	     i++)
		usleep(50000);
	if (!atomic_load(&fw->outstanding))
		return 0;
	olog(OLOG_SOURCE, NULL, "%lu frames not acknowledged by the broker",
	     (unsigned long)atomic_load(&fw->outstanding));
	return -1;
}

/*
 * The first connection must come up (the broker's CONNACK accepting it)
 * within MQ_CONNECT_SECONDS: a broker that refuses this client, a TLS
 * handshake that fails (a certificate that does not verify) or no answer
 * is a setup error, not something to retry forever. 0 or -1 after a
 * message; later losses are reconnected.
 */
static int first_connack(struct fwd *fw)
{
	int i, refused;

	for (i = 0; i < MQ_CONNECT_SECONDS * 20; i++) {
		if (atomic_load(&fw->connected))
			return 0;
		refused = atomic_load(&fw->refused);
		if (refused) {
			mq_failed(&fw->mo, mosquitto_connack_string(refused));
			return -1;
		}
		if (*mq_last_error() || atomic_load(&fw->drops)) {
			mq_failed(&fw->mo, *mq_last_error() ?
				  "the connection failed" : MQ_LOST_EARLY);
			return -1;
		}
		usleep(50000);
	}
	mq_failed(&fw->mo, "no CONNACK");
	return -1;
}

/*
 * The network thread: libmosquitto's loop, and when the connection is
 * lost, the next broker of the list (a second after a round in which none
 * took the connection). Once quit is set it stops when the DISCONNECT is
 * written and the connection closed, or after QUIT_SECONDS.
 */
static void *net_thread(void *arg)
{
	struct fwd *fw = arg;
	int rc, quitting = 0;

	while (1) {
		rc = mosquitto_loop(fw->m, 200, 1);
		if (atomic_load(&fw->quit) &&
		    (rc != MOSQ_ERR_SUCCESS || ++quitting > QUIT_SECONDS * 5))
			break;
		if (rc == MOSQ_ERR_SUCCESS)
			continue;
		atomic_store(&fw->connected, 0);
		if (mq_connect(fw->m, &fw->mo, 1, 1))
			usleep(1000000);
	}
	return NULL;
}

static int setup(struct fwd *fw, struct src *s)
{
	char id[MQ_MAX_ID + 16];

	snprintf(id, sizeof(id), "diamond-fwd-%s", fw->gw_id);
	fw->mo.client_id = id;
	fw->rd = diamond_reader_new();
	if (!fw->rd || src_open(s))
		return -1;
	fw->m = mq_client(&fw->mo, 1, fw);
	if (!fw->m)
		return -1;
	mosquitto_connect_callback_set(fw->m, on_connect);
	mosquitto_disconnect_callback_set(fw->m, on_disconnect);
	mosquitto_publish_callback_set(fw->m, on_publish);
	/* Packets queued by publish() are written by net_thread(). */
	mosquitto_threaded_set(fw->m, true);
	if (mq_connect(fw->m, &fw->mo, 0, 0))
		return -1;
	if (pthread_create(&fw->net, NULL, net_thread, fw)) {
		err_msg("mqtt: cannot start the network thread");
		return -1;
	}
	fw->net_started = 1;
	return first_connack(fw);
}

static void summary(const struct fwd *fw)
{
	if (fw->packet) {
		olog_info(1, NULL, "forward (%s): %llu packets published, %llu "
			  "dropped (queue full), %llu datagrams of no packet's "
			  "length, %llu bad packet-forwarder datagrams, %llu "
			  "errors", fw->gw_id, (unsigned long long)fw->frames,
			  (unsigned long long)fw->full,
			  (unsigned long long)fw->bad_packets,
			  (unsigned long long)fw->gwmp_bad,
			  (unsigned long long)fw->errors);
		return;
	}
	olog_info(1, NULL, "forward (%s): %llu frames published, %llu dropped "
		  "(queue full), %llu bytes without frame sync, %llu malformed "
		  "headers, %llu bad packet-forwarder datagrams, %llu errors",
		  fw->gw_id, (unsigned long long)fw->frames,
		  (unsigned long long)fw->full,
		  (unsigned long long)fw->junk_bytes,
		  (unsigned long long)fw->bad_headers,
		  (unsigned long long)fw->gwmp_bad,
		  (unsigned long long)fw->errors);
}

/* The options into @fw and @s; 0, or EXIT_USAGE after a message. */
static int options(int argc, char **argv, struct fwd *fw, struct src *s,
		   int *semtech)
{
	static const struct option opts[] = {
		{ "broker", required_argument, NULL, 'b' },
		{ "gateway-id", required_argument, NULL, 'g' },
		{ "udp", required_argument, NULL, 'u' },
		{ "semtech", required_argument, NULL, 'p' },
		{ "serial", required_argument, NULL, 'S' },
		{ "input", required_argument, NULL, 'i' },
		{ "bind", required_argument, NULL, 'B' },
		{ "shards", required_argument, NULL, 'n' },
		{ "topic-prefix", required_argument, NULL, 'P' },
		{ "user", required_argument, NULL, 'U' },
		{ "max-queue", required_argument, NULL, 'q' },
		{ "packet", no_argument, NULL, 'k' },
		MQ_TLS_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c, nsrc = 0, broker = 0;
	uint64_t v;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (mq_tls_option(c, optarg, &fw->mo))
			continue;
		switch (c) {
		case 'b':
			if (mq_parse_brokers(optarg, &fw->mo))
				return EXIT_USAGE;
			broker = 1;
			break;
		case 'g': fw->gw_id = optarg; break;
		case 'u': s->kind = SRC_UDP; s->name = optarg; nsrc++; break;
		case 'p': s->kind = SRC_UDP; s->name = optarg; *semtech = 1;
			nsrc++; break;
		case 'S': s->kind = SRC_SERIAL; s->name = optarg; nsrc++; break;
		case 'i': s->kind = SRC_FILE; s->name = optarg; nsrc++;
			fw->wait_queue = 1; break;
		case 'B': s->bind = optarg; break;
		case 'P': fw->mo.prefix = optarg; break;
		case 'U': fw->mo.user = optarg; break;
		case 'k': fw->packet = 1; break;
		case 'n':
			if (parse_u64(optarg, MQ_MAX_SHARDS, &v) || !v)
				goto bad;
			fw->mo.shards = (uint32_t)v;
			break;
		case 'q':
			if (parse_u64(optarg, 1u << 24, &v) || !v)
				goto bad;
			fw->max_queue = (unsigned long)v;
			break;
		case 'h': help(stdout); return -1;
		default: help(stderr); return EXIT_USAGE;
		}
	}
	if (!broker || !fw->gw_id || nsrc != 1 || optind != argc) {
		if (nsrc > 1)
			err_msg("choose one of --udp, --semtech, --serial, --input");
		help(stderr);
		return EXIT_USAGE;
	}
	if (!mq_id_ok(fw->gw_id) || strchr(fw->mo.prefix, '+') ||
	    strchr(fw->mo.prefix, '#') || !*fw->mo.prefix) {
		err_msg("--gateway-id: [A-Za-z0-9._-], 1 to 64; --topic-prefix: no + or #");
		return EXIT_USAGE;
	}
	return mq_tls_check(&fw->mo) ? EXIT_USAGE : 0;
bad:
	err_msg("bad value '%s'", optarg);
	return EXIT_USAGE;
}

int cmd_forward(int argc, char **argv)
{
	struct fwd fw = { .mo = { .prefix = MQ_DEFAULT_PREFIX, .shards = 1 },
			  .max_queue = DEFAULT_MAX_QUEUE };
	struct src s = { .kind = SRC_FD, .bind = "127.0.0.1", .fd = -1 };
	struct sigaction sa = { .sa_handler = on_signal };
	int semtech = 0, rc, up;

	olog_setup(10);
	rc = options(argc, argv, &fw, &s, &semtech);
	if (rc)
		return rc < 0 ? 0 : rc;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	up = !setup(&fw, &s);
	rc = up ? 0 : EXIT_SETUP;
	if (up) {
		rc = run(&fw, &s, semtech) ? EXIT_SETUP : 0;
		/* A file is forwarded once the broker has all of it. */
		if (drain(&fw) && s.kind == SRC_FILE && !rc)
			rc = EXIT_SETUP;
	}
	if (fw.m) {
		/* Never up: the thread may be retrying; it stops too. */
		atomic_store(&fw.quit, 1);
		mosquitto_disconnect(fw.m);
		if (fw.net_started)
			pthread_join(fw.net, NULL);
		mosquitto_destroy(fw.m);
	}
	if (up)		/* never connected: nothing to sum up */
		summary(&fw);
	src_close(&s);
	diamond_reader_free(fw.rd);
	return rc;
}
