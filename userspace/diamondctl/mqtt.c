// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The fleet's shared pieces (mqtt.h): the broker address, the client
 * and the envelope. An envelope is a frame as the radio gave it, with
 * who heard it: "DQ", version 1, a flags byte (0), the gateway ID
 * (length byte, then the ID), receive metadata as JSON text (16-bit little-endian length, then
 * the text), then the frame, unchanged, to the end of the message.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mosquitto.h>

#include "diamondctl.h"
#include "mqtt.h"

/* The port of @n bytes at @s, 1 to 65535, into *@port; 0 or -1. */
static int parse_port(const char *s, size_t n, int *port)
{
	char buf[8];
	uint64_t v;

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	if (parse_u64(buf, 65535, &v) || !v)
		return -1;
	*port = (int)v;
	return 0;
}

/* One HOST[:PORT] of @n bytes at @s into @b; 0 or -1. */
static int parse_broker(const char *s, size_t n, struct mq_broker *b)
{
	const char *stop = s + n, *host = s, *host_end, *colon;

	b->port = 0;			/* the default: mq_port() */
	if (n && *s == '[') {		/* [IPv6]:PORT */
		host = s + 1;
		host_end = memchr(s, ']', n);
		if (!host_end)
			return -1;
		colon = host_end + 1 < stop ? host_end + 1 : NULL;
		if (colon && *colon != ':')
			return -1;
	} else {
		colon = memrchr(s, ':', n);
		host_end = colon ? colon : stop;
	}
	if (host_end == host || (size_t)(host_end - host) >= sizeof(b->host))
		return -1;
	if (colon && parse_port(colon + 1, (size_t)(stop - colon - 1), &b->port))
		return -1;
	memcpy(b->host, host, (size_t)(host_end - host));
	b->host[host_end - host] = 0;
	return 0;
}

int mq_parse_brokers(const char *list, struct mq_opts *o)
{
	const char *s = list, *comma;
	size_t n;

	do {
		comma = strchr(s, ',');
		n = comma ? (size_t)(comma - s) : strlen(s);
		if (o->nbrokers == MQ_MAX_BROKERS) {
			err_msg("'%s': at most %d broker addresses", list,
				MQ_MAX_BROKERS);
			return -1;
		}
		if (parse_broker(s, n, &o->broker[o->nbrokers])) {
			err_msg("'%.*s': not HOST[:PORT] (in '%s')", (int)n, s, list);
			return -1;
		}
		o->nbrokers++;
		s = comma + 1;
	} while (comma);
	return 0;
}

int mq_tls_option(int c, const char *arg, struct mq_opts *o)
{
	switch (c) {
	case MQ_OPT_CAFILE: o->cafile = arg; return 1;
	case MQ_OPT_CERT: o->cert = arg; return 1;
	case MQ_OPT_KEY: o->key = arg; return 1;
	default: return 0;
	}
}

int mq_tls_check(const struct mq_opts *o)
{
	if (!o->cert != !o->key || (o->cert && !o->cafile)) {
		err_msg("--cert and --key go together, and with --cafile");
		return -1;
	}
	return 0;
}

int mq_port(const struct mq_opts *o, unsigned int i)
{
	int port = o->broker[i % o->nbrokers].port;

	if (port)
		return port;
	return o->cafile ? MQ_DEFAULT_TLS_PORT : MQ_DEFAULT_PORT;
}

/*
 * libmosquitto's error log lines (the network thread's, too): the last
 * one is the reason a TLS handshake failed. One writer at a time in
 * practice; a torn line only garbles a message.
 */
static char last_error[256];
static atomic_int have_error;

static void on_log(struct mosquitto *m, void *arg, int level, const char *s)
{
	(void)m;
	(void)arg;
	if (level != MOSQ_LOG_ERR)
		return;
	snprintf(last_error, sizeof(last_error), "%s", s);
	atomic_store(&have_error, 1);
}

const char *mq_last_error(void)
{
	return atomic_load(&have_error) ? last_error : "";
}

const char *mq_early_error(int rc)
{
	int e = errno;
	int closed = rc == MOSQ_ERR_CONN_LOST || rc == MOSQ_ERR_PROTOCOL ||
		     (rc == MOSQ_ERR_ERRNO &&
		      (e == EPROTO || e == ECONNRESET || e == EPIPE));

	if (closed && !*mq_last_error())
		return MQ_LOST_EARLY;
	return rc == MOSQ_ERR_ERRNO ? strerror(e) : mosquitto_strerror(rc);
}

void mq_failed(const struct mq_opts *o, const char *why)
{
	const char *e = mq_last_error();

	err_msg("mqtt: broker %s port %d: %s%s%s%s", o->broker[o->at].host,
		mq_port(o, o->at), why, *e ? " (" : "", e, *e ? ")" : "");
}

/* --cafile, --cert, --key: TLS, the broker's certificate verified. */
static int tls_setup(struct mosquitto *m, const struct mq_opts *o)
{
	int rc;

	if (!o->cafile)
		return 0;
	rc = mosquitto_tls_set(m, o->cafile, NULL, o->cert, o->key, NULL);
	if (rc == MOSQ_ERR_SUCCESS)
		return 0;
	err_msg("mqtt: --cafile %s%s%s%s%s: %s", o->cafile,
		o->cert ? ", --cert " : "", o->cert ? o->cert : "",
		o->key ? ", --key " : "", o->key ? o->key : "",
		rc == MOSQ_ERR_INVAL ? "a file cannot be read" :
		mosquitto_strerror(rc));
	return -1;
}

int mq_id_ok(const char *id)
{
	size_t i, n = strlen(id);

	if (!n || n > MQ_MAX_ID)
		return 0;
	for (i = 0; i < n; i++)
		if (!((id[i] >= 'a' && id[i] <= 'z') ||
		      (id[i] >= 'A' && id[i] <= 'Z') ||
		      (id[i] >= '0' && id[i] <= '9') ||
		      id[i] == '.' || id[i] == '_' || id[i] == '-'))
			return 0;
	return 1;
}

struct mosquitto *mq_client(const struct mq_opts *o, int clean, void *arg)
{
	static int inited;
	const char *pass = getenv("DIAMOND_MQTT_PASSWORD");
	struct mosquitto *m;

	if (!inited++)
		mosquitto_lib_init();
	m = mosquitto_new(o->client_id, clean, arg);
	if (!m) {
		err_msg("mqtt: cannot make a client: %s", strerror(errno));
		return NULL;
	}
	/* MQTT 3.1.1, so that any broker will do. */
	mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311);
	mosquitto_log_callback_set(m, on_log);
	if ((o->user || pass) &&
	    mosquitto_username_pw_set(m, o->user, pass) != MOSQ_ERR_SUCCESS) {
		err_msg("mqtt: bad username or password");
		mosquitto_destroy(m);
		return NULL;
	}
	if (tls_setup(m, o)) {
		mosquitto_destroy(m);
		return NULL;
	}
	return m;
}

const char *mq_broker_name(const struct mq_opts *o, unsigned int i)
{
	static _Thread_local char name[300];
	const struct mq_broker *b = &o->broker[i % o->nbrokers];

	snprintf(name, sizeof(name), strchr(b->host, ':') ? "[%s]:%d" : "%s:%d",
		 b->host, mq_port(o, i));
	return name;
}

/*
 * A failure that is the node's (down, unreachable, not resolved): the
 * next node of the list may do. A failed TLS handshake is the setup's
 * (the CA, the certificate, the listener), the same at every node.
 */
static int node_down(int rc)
{
	return rc != MOSQ_ERR_TLS;
}

int mq_connect(struct mosquitto *m, struct mq_opts *o, int next, int quiet)
{
	const struct mq_broker *b;
	unsigned int i;
	int rc;

	for (i = 0; i < o->nbrokers; i++) {
		o->at = (o->at + (next || i)) % o->nbrokers;
		b = &o->broker[o->at];
		atomic_store(&have_error, 0);	/* this node's reason only */
		/*
		 * mosquitto_connect(), unlike mosquitto_reconnect(), takes a
		 * new address; both keep the client's queued QoS 1 messages
		 * (sent again once the CONNACK comes) and drop the packets
		 * not yet written, the PUBACKs of open --mqtt among them.
		 */
		rc = mosquitto_connect(m, b->host, mq_port(o, o->at),
				       o->keepalive ? o->keepalive : MQ_KEEPALIVE);
		if (rc == MOSQ_ERR_SUCCESS)
			return 0;
		if (!quiet)
			mq_failed(o, mq_early_error(rc));
		if (!node_down(rc))
			return MQ_SETUP_ERROR;
	}
	return -1;
}

size_t mq_wrap(uint8_t *out, size_t cap, const char *gw_id, const char *meta,
	       const uint8_t *frame, size_t flen)
{
	size_t idlen = strlen(gw_id), mlen = meta ? strlen(meta) : 0;
	size_t n = 5 + idlen + 2 + mlen + flen;

	if (idlen > MQ_MAX_ID || mlen > MQ_MAX_META || n > cap)
		return 0;
	out[0] = 'D';
	out[1] = 'Q';
	out[2] = MQ_ENV_VERSION;
	out[3] = 0;			/* flags: none defined */
	out[4] = (uint8_t)idlen;
	memcpy(out + 5, gw_id, idlen);
	out[5 + idlen] = (uint8_t)mlen;
	out[6 + idlen] = (uint8_t)(mlen >> 8);
	memcpy(out + 7 + idlen, meta, mlen);
	memcpy(out + 7 + idlen + mlen, frame, flen);
	return n;
}

int mq_unwrap(const uint8_t *p, size_t len, const uint8_t **frame,
	      size_t *flen, char gw_id[MQ_MAX_ID + 1])
{
	size_t idlen, mlen, at;

	if (len < 7 || p[0] != 'D' || p[1] != 'Q' || p[2] != MQ_ENV_VERSION ||
	    p[3] != 0)
		return -EPROTO;
	idlen = p[4];
	if (idlen > MQ_MAX_ID || 7 + idlen > len)
		return -EPROTO;
	mlen = (size_t)p[5 + idlen] | (size_t)p[6 + idlen] << 8;
	at = 7 + idlen + mlen;
	if (mlen > MQ_MAX_META || at > len)
		return -EPROTO;
	memcpy(gw_id, p + 5, idlen);
	gw_id[idlen] = 0;
	*frame = p + at;
	*flen = len - at;
	return 0;
}
