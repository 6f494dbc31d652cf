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

int mq_parse_broker(const char *s, struct mq_opts *o)
{
	const char *colon, *end = s + strlen(s);
	uint64_t port = MQ_DEFAULT_PORT;
	size_t n;

	if (*s == '[') {		/* [IPv6]:PORT */
		end = strchr(s, ']');
		if (!end)
			goto bad;
		colon = end[1] == ':' ? end + 1 : NULL;
		s++;
	} else {
		colon = strrchr(s, ':');
		if (colon)
			end = colon;
	}
	n = (size_t)(end - s);
	if (!n || n >= sizeof(o->host))
		goto bad;
	if (colon && (parse_u64(colon + 1, 65535, &port) || !port))
		goto bad;
	memcpy(o->host, s, n);
	o->host[n] = 0;
	o->port = (int)port;
	return 0;
bad:
	err_msg("--broker '%s': not HOST[:PORT]", s);
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
	if ((o->user || pass) &&
	    mosquitto_username_pw_set(m, o->user, pass) != MOSQ_ERR_SUCCESS) {
		err_msg("mqtt: bad username or password");
		mosquitto_destroy(m);
		return NULL;
	}
	return m;
}

int mq_connect(struct mosquitto *m, const struct mq_opts *o)
{
	int rc = mosquitto_connect(m, o->host, o->port, MQ_KEEPALIVE);

	if (rc == MOSQ_ERR_SUCCESS)
		return 0;
	err_msg("mqtt: broker %s port %d: %s", o->host, o->port,
		rc == MOSQ_ERR_ERRNO ? strerror(errno) : mosquitto_strerror(rc));
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
