/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * diamondctl's fleet on an MQTT broker (Documentation/userspace.rst,
 * "Fleet on MQTT"): what forward.c and open_mqtt.c share: the broker
 * address, the topics and the envelope a frame travels in.
 */
#ifndef DIAMONDCTL_MQTT_H
#define DIAMONDCTL_MQTT_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/libdiamond.h>

struct mosquitto;

#define MQ_DEFAULT_PORT		1883
#define MQ_DEFAULT_PREFIX	"diamond"
#define MQ_KEEPALIVE		30	/* seconds: a dead peer found in 45 */
#define MQ_MAX_BROKERS		16	/* addresses of one broker cluster */
#define MQ_MAX_SHARDS		65536
#define MQ_MAX_ID		64	/* a gateway ID, topic-safe characters */
#define MQ_MAX_META		1024	/* receive metadata, JSON text */
/*
 * Envelope: "DQ", version, flags (0), ID length, ID, metadata length
 * (LE16), metadata, the frame.
 */
#define MQ_ENV_VERSION		1
#define MQ_ENV_MAX		(7 + MQ_MAX_ID + MQ_MAX_META + \
				 DIAMOND_FRAME_HDR + 65535)

/* One address of the broker (a node of a cluster). */
struct mq_broker {
	char host[256];
	int port;
};

struct mq_opts {
	struct mq_broker broker[MQ_MAX_BROKERS];
	unsigned int nbrokers;
	unsigned int at;	/* the broker connected to, or tried last */
	const char *prefix;	/* topic prefix P */
	const char *client_id;
	const char *user;	/* password from $DIAMOND_MQTT_PASSWORD */
	uint32_t shards;	/* N: a device's shard is its ID mod N */
};

/*
 * HOST[:PORT][,HOST[:PORT]...] (an IPv6 literal as [ADDR]:PORT), added to
 * @o's list: the nodes of one broker cluster; 0 or -1 after a message.
 */
int mq_parse_brokers(const char *list, struct mq_opts *o);
/* [A-Za-z0-9._-]{1,64}: safe as one topic level. */
int mq_id_ok(const char *id);
/*
 * A client for @o (@clean: clean session), its username and password set,
 * libmosquitto initialised once; NULL after a message.
 */
struct mosquitto *mq_client(const struct mq_opts *o, int clean, void *arg);
/*
 * Connect (TCP and the CONNECT packet queued) to the first broker of the
 * list that takes the TCP connection, starting at o->at (@next: at the one
 * after it, to fail over), and leave o->at on it. The client, its ID and
 * its queued QoS 1 messages stay: a persistent session goes on at
 * whichever node the cluster serves it from. 0, or -1 when none did
 * (after a message for each unless @quiet).
 */
int mq_connect(struct mosquitto *m, struct mq_opts *o, int next, int quiet);
/* "HOST:PORT" of broker @i, for messages (a static buffer). */
const char *mq_broker_name(const struct mq_opts *o, unsigned int i);

/* Wrap @frame for a frames topic; the envelope's size, or 0. */
size_t mq_wrap(uint8_t *out, size_t cap, const char *gw_id, const char *meta,
	       const uint8_t *frame, size_t flen);
/*
 * The frame in an envelope: *@frame, *@flen (the rest of it, not yet
 * parsed) and the gateway ID (copied, NUL-terminated). The metadata is
 * skipped: nothing that decides reads it. 0, or -EPROTO.
 */
int mq_unwrap(const uint8_t *p, size_t len, const uint8_t **frame,
	      size_t *flen, char gw_id[MQ_MAX_ID + 1]);

#endif
