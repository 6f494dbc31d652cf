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

	b->port = MQ_DEFAULT_PORT;
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
	if ((o->user || pass) &&
	    mosquitto_username_pw_set(m, o->user, pass) != MOSQ_ERR_SUCCESS) {
		err_msg("mqtt: bad username or password");
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
		 b->host, b->port);
	return name;
}

int mq_connect(struct mosquitto *m, struct mq_opts *o, int next, int quiet)
{
	const struct mq_broker *b;
	unsigned int i;
	int rc;

	for (i = 0; i < o->nbrokers; i++) {
		o->at = (o->at + (next || i)) % o->nbrokers;
		b = &o->broker[o->at];
		/*
		 * mosquitto_connect(), unlike mosquitto_reconnect(), takes a
		 * new address; both keep the client's queued QoS 1 messages
		 * (sent again once the CONNACK comes) and drop the packets
		 * not yet written, the PUBACKs of open --mqtt among them.
		 */
		rc = mosquitto_connect(m, b->host, b->port, MQ_KEEPALIVE);
		if (rc == MOSQ_ERR_SUCCESS)
			return 0;
		if (!quiet)
			err_msg("mqtt: broker %s: %s", mq_broker_name(o, o->at),
				rc == MOSQ_ERR_ERRNO ? strerror(errno) :
				mosquitto_strerror(rc));
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
