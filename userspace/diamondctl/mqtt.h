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
#define MQ_DEFAULT_TLS_PORT	8883	/* with --cafile, as mosquitto_pub */
#define MQ_CONNECT_SECONDS	10	/* the first CONNACK, or exit 3 */
#define MQ_DEFAULT_PREFIX	"diamond"
#define MQ_KEEPALIVE		30	/* seconds: a dead peer found in 45 */
#define MQ_MAX_BROKERS		16	/* addresses of one broker cluster */
#define MQ_MAX_SHARDS		65536
#define MQ_MAX_ID		64	/* a gateway ID, topic-safe characters */
#define MQ_MAX_META		1024	/* receive metadata, JSON text */
#define MQ_DEFAULT_MAX_OWED	16384	/* open --mqtt --max-owed */
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
	int port;		/* 0: the default, 1883, or 8883 with TLS */
};

struct mq_opts {
	struct mq_broker broker[MQ_MAX_BROKERS];
	unsigned int nbrokers;
	unsigned int at;	/* the broker connected to, or tried last */
	int keepalive;		/* seconds; 0: MQ_KEEPALIVE */
	const char *prefix;	/* topic prefix P */
	const char *client_id;
	const char *user;	/* password from $DIAMOND_MQTT_PASSWORD */
	uint32_t shards;	/* N: a device's shard is its ID mod N */
	/* open --mqtt --max-owed: frames are not fed while a verifier owes
	 * the broker this many readings and events (0: the default) */
	size_t max_owed;
	/* TLS (--cafile): the broker's certificate is verified against
	 * @cafile and must name the broker's host (DNS name or IP address);
	 * --cert and --key, an unencrypted PEM key, for a broker that asks
	 * for client certificates. */
	const char *cafile, *cert, *key;
};

/*
 * HOST[:PORT][,HOST[:PORT]...] (an IPv6 literal as [ADDR]:PORT), added to
 * @o's list: the nodes of one broker cluster; 0 or -1 after a message.
 */
int mq_parse_brokers(const char *list, struct mq_opts *o);

/* --cafile, --cert and --key, as mosquitto_pub names them. */
#define MQ_OPT_CAFILE	0x1001
#define MQ_OPT_CERT	0x1002
#define MQ_OPT_KEY	0x1003
#define MQ_TLS_LONGOPTS \
	{ "cafile", required_argument, NULL, MQ_OPT_CAFILE }, \
	{ "cert", required_argument, NULL, MQ_OPT_CERT }, \
	{ "key", required_argument, NULL, MQ_OPT_KEY }
#define MQ_TLS_HELP \
	"  --cafile FILE     TLS: the CA certificate(s), PEM, that the broker's\n" \
	"                    certificate must chain to; it must name HOST\n" \
	"                    (default port then 8883)\n" \
	"  --cert FILE       TLS: this client's certificate, PEM, for a broker\n" \
	"                    that requires one (with --key and --cafile)\n" \
	"  --key FILE        TLS: its private key, PEM, unencrypted\n"
/* A getopt_long() result @c: 1 if it was one of them (into @o), else 0. */
int mq_tls_option(int c, const char *arg, struct mq_opts *o);
/* --cert and --key go together, and with --cafile; 0 or -1 after a message. */
int mq_tls_check(const struct mq_opts *o);
/* The port of broker @i: its own, or the default (TLS or not). */
int mq_port(const struct mq_opts *o, unsigned int i);
/* [A-Za-z0-9._-]{1,64}: safe as one topic level. */
int mq_id_ok(const char *id);
/*
 * A client for @o (@clean: clean session), its username and password set,
 * libmosquitto initialised once; NULL after a message.
 */
struct mosquitto *mq_client(const struct mq_opts *o, int clean, void *arg);
/*
 * Connect (TCP, the TLS handshake with --cafile, the CONNECT packet
 * queued) to the first broker of the list that takes the connection,
 * starting at o->at (@next: at the one after it, to fail over), and leave
 * o->at on it. The client, its ID and its queued QoS 1 messages stay: a
 * persistent session goes on at whichever node the cluster serves it
 * from. 0; -1 when no node was reached; MQ_SETUP_ERROR when a node was
 * reached and the TLS handshake failed (a setup error, not a node down:
 * the walk stops there). Unless @quiet, a message for each failure that
 * names the reason (libmosquitto's error, and OpenSSL's for TLS:
 * "certificate verify failed").
 */
#define MQ_SETUP_ERROR	(-2)
int mq_connect(struct mosquitto *m, struct mq_opts *o, int next, int quiet);
/* "HOST:PORT" of broker @i, for messages (a static buffer). */
const char *mq_broker_name(const struct mq_opts *o, unsigned int i);
/*
 * The last error libmosquitto logged for this process (OpenSSL's reason
 * for a failed handshake, which its return codes do not carry), or "".
 */
const char *mq_last_error(void);
/*
 * Why the first connection failed with libmosquitto's @rc (and errno for
 * MOSQ_ERR_ERRNO), in words.
 */
const char *mq_early_error(int rc);
/* Print "mqtt: broker HOST port PORT: @why[ (last error)]" for o->at. */
void mq_failed(const struct mq_opts *o, const char *why);
/*
 * The first connection closed (or garbled: a TLS alert read as MQTT)
 * before the broker's CONNACK: why, likely.
 */
#define MQ_LOST_EARLY \
	"the broker closed the connection before its CONNACK (a TLS listener " \
	"needs --cafile, one that requires client certificates --cert and " \
	"--key)"

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
