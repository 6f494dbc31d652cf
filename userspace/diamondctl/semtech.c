// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The Semtech UDP packet forwarder protocol, version 2, written from its
 * published description (PROTOCOL.TXT of Semtech's packet_forwarder):
 * every datagram starts with the protocol version (2), a random 2-byte
 * token and an identifier; PUSH_DATA (0) carries the gateway's 8-byte
 * EUI and then a JSON object whose "rxpk" array holds the packets
 * received, each with its PHY payload base64 in "data"; the server
 * answers PUSH_ACK (1) with the same token. PULL_DATA (2, EUI, no JSON)
 * is the gateway's keep-alive for downlinks; it gets PULL_ACK (4).
 *
 * Everything here is radio-side input: the JSON is walked with a depth
 * limit and no allocation, unknown keys are skipped, and only numbers and
 * short plain strings are copied into the metadata.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mqtt.h"
#include "semtech.h"

#define GWMP_VERSION	2
#define PUSH_DATA	0
#define PUSH_ACK	1
#define PULL_DATA	2
#define PULL_ACK	4
#define GWMP_HDR	12	/* version, token, id, EUI */
#define MAX_DEPTH	8

struct cur {
	const char *p, *end;
};

static void ws(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' ||
				 *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

static int eat(struct cur *c, char ch)
{
	ws(c);
	if (c->p < c->end && *c->p == ch) {
		c->p++;
		return 1;
	}
	return 0;
}

/* A string: *@s, *@n its raw body (escapes left as they are). 0 or -1. */
static int string(struct cur *c, const char **s, size_t *n)
{
	if (!eat(c, '"'))
		return -1;
	*s = c->p;
	while (c->p < c->end && *c->p != '"') {
		if (*c->p == '\\' && ++c->p == c->end)
			return -1;
		c->p++;
	}
	if (c->p == c->end)
		return -1;
	*n = (size_t)(c->p - *s);
	c->p++;
	return 0;
}

static int skip_value(struct cur *c, int depth);

/* The members of an object or the elements of an array, skipped. */
static int skip_items(struct cur *c, int depth, char close, int keyed)
{
	const char *s;
	size_t n;

	if (eat(c, close))
		return 0;
	do {
		if (keyed && (string(c, &s, &n) || !eat(c, ':')))
			return -1;
		if (skip_value(c, depth + 1))
			return -1;
	} while (eat(c, ','));
	return eat(c, close) ? 0 : -1;
}

static int skip_value(struct cur *c, int depth)
{
	const char *s;
	size_t n;

	if (depth > MAX_DEPTH)
		return -1;
	ws(c);
	if (c->p == c->end)
		return -1;
	if (*c->p == '"')
		return string(c, &s, &n);
	if (eat(c, '{'))
		return skip_items(c, depth, '}', 1);
	if (eat(c, '['))
		return skip_items(c, depth, ']', 0);
	s = c->p;	/* a number, true, false or null */
	while (c->p < c->end && strchr("0123456789+-.eEtruefalsn", *c->p))
		c->p++;
	return c->p > s ? 0 : -1;
}

static int b64val(char ch)
{
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A';
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a' + 26;
	if (ch >= '0' && ch <= '9')
		return ch - '0' + 52;
	if (ch == '+')
		return 62;
	return ch == '/' ? 63 : -1;
}

/* Base64 with or without its padding; the length, or -1. */
static long base64(const char *s, size_t n, uint8_t *out, size_t cap)
{
	uint32_t acc = 0;
	size_t i, bits = 0, len = 0;
	int v;

	while (n && s[n - 1] == '=')
		n--;
	for (i = 0; i < n; i++) {
		v = b64val(s[i]);
		if (v < 0)
			return -1;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (len == cap)
				return -1;
			out[len++] = (uint8_t)(acc >> bits);
		}
	}
	return (long)len;
}

/* Numbers and short strings of safe characters only. */
static int plain(const char *s, size_t n, int quoted)
{
	size_t i;

	if (!n || n > 32)
		return 0;
	for (i = 0; i < n; i++)
		if (!strchr(quoted ? "0123456789abcdefghijklmnopqrstuvwxyz"
			     "ABCDEFGHIJKLMNOPQRSTUVWXYZ.:-+/_" :
			     "0123456789+-.eE", s[i]))
			return 0;
	return 1;
}

struct rxpk {
	uint8_t phy[GWMP_MAX_PHY];
	long len;
	char meta[MQ_MAX_META + 1];
	size_t mlen;
};

/* Member @key (its value at @c) into the metadata if it is plain; 0 or -1. */
static int copy_meta(struct rxpk *r, const char *key, size_t klen,
		      struct cur *c)
{
	const char *v = c->p;
	size_t n;
	int q;

	if (skip_value(c, 1))
		return -1;
	n = (size_t)(c->p - v);
	while (n && (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')) {
		v++;
		n--;
	}
	q = n >= 2 && *v == '"';
	if (klen > 16 || !plain(key, klen, 1) ||
	    !plain(v + q, n - 2 * (size_t)q, q) ||
	    r->mlen + klen + n + 8 >= sizeof(r->meta))
		return 0;
	r->mlen += (size_t)snprintf(r->meta + r->mlen, sizeof(r->meta) - r->mlen,
				    ",\"%.*s\":%.*s", (int)klen, key, (int)n, v);
	return 0;
}

/* One rxpk object: its "data" decoded, the rest as metadata. */
static int one_rxpk(struct cur *c, struct rxpk *r)
{
	const char *k, *s;
	size_t kn, n;

	r->len = -1;
	if (!eat(c, '{'))
		return -1;
	if (eat(c, '}'))
		return 0;
	do {
		if (string(c, &k, &kn) || !eat(c, ':'))
			return -1;
		if (kn == 4 && !memcmp(k, "data", 4)) {
			if (string(c, &s, &n))
				return -1;
			r->len = base64(s, n, r->phy, sizeof(r->phy));
		} else if (copy_meta(r, k, kn, c)) {
			return -1;
		}
	} while (eat(c, ','));
	return eat(c, '}') ? 0 : -1;
}

/* The "rxpk" array: @fn for each packet with data. Packets taken or -1. */
static int rxpk_array(struct cur *c, const char *eui, gwmp_rx_fn fn,
		      void *arg)
{
	struct rxpk r;
	int taken = 0;

	if (!eat(c, '['))
		return -1;
	if (eat(c, ']'))
		return 0;
	do {
		r.mlen = (size_t)snprintf(r.meta, sizeof(r.meta),
					  "{\"src\":\"semtech\",\"eui\":\"%s\"",
					  eui);
		if (one_rxpk(c, &r))
			return -1;
		if (r.len <= 0)
			continue;
		r.meta[r.mlen++] = '}';
		r.meta[r.mlen] = 0;
		fn(arg, r.phy, (size_t)r.len, r.meta);
		taken++;
	} while (eat(c, ','));
	return eat(c, ']') ? taken : -1;
}

static int push_data(const char *json, size_t len, const char *eui,
		     gwmp_rx_fn fn, void *arg)
{
	struct cur c = { json, json + len };
	const char *k;
	size_t kn;
	int taken = 0, rc;

	if (!eat(&c, '{'))
		return -EPROTO;
	if (eat(&c, '}'))
		return 0;
	do {
		if (string(&c, &k, &kn) || !eat(&c, ':'))
			return -EPROTO;
		if (kn == 4 && !memcmp(k, "rxpk", 4)) {
			rc = rxpk_array(&c, eui, fn, arg);
			if (rc < 0)
				return -EPROTO;
			taken += rc;
		} else if (skip_value(&c, 1)) {
			return -EPROTO;
		}
	} while (eat(&c, ','));
	return eat(&c, '}') ? taken : -EPROTO;
}

int gwmp_datagram(const uint8_t *d, size_t len, uint8_t ack[4],
		  size_t *acklen, gwmp_rx_fn fn, void *arg)
{
	char eui[17];
	int i;

	*acklen = 0;
	if (len < GWMP_HDR || d[0] != GWMP_VERSION ||
	    (d[3] != PUSH_DATA && d[3] != PULL_DATA))
		return -EPROTO;
	ack[0] = GWMP_VERSION;
	ack[1] = d[1];
	ack[2] = d[2];
	ack[3] = d[3] == PUSH_DATA ? PUSH_ACK : PULL_ACK;
	*acklen = 4;
	if (d[3] == PULL_DATA)
		return 0;
	for (i = 0; i < 8; i++)
		snprintf(eui + 2 * i, 3, "%02x", d[4 + i]);
	return push_data((const char *)d + GWMP_HDR, len - GWMP_HDR, eui, fn,
			 arg);
}
