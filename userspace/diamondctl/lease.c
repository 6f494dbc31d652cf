// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The lease messages of a fleet (Documentation/userspace.rst, "Shards and
 * failover"): what P/lease/<shard> and P/alive/<verifier> carry, and who
 * should take a free shard. Pure functions: fleet.c does the MQTT.
 *
 * A lease is {"holder":"NAME","token":T,"ttl_ms":L}, retained, renewed
 * by its holder every L/3; an empty holder is a lease given back. A
 * lease is only liveness: MQTT has no compare-and-swap, so two verifiers
 * may both believe they hold a shard for a moment. Safety is the fence
 * in the shard's directory (libdiamond's fence.c), which the token
 * carried here only feeds.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lease.h"

size_t lease_format(char *out, size_t size, const char *holder,
		    uint64_t token, uint32_t ttl_ms)
{
	int n = snprintf(out, size, "{\"holder\":\"%s\",\"token\":%" PRIu64
			 ",\"ttl_ms\":%u}", holder, token, (unsigned int)ttl_ms);

	return n > 0 && (size_t)n < size ? (size_t)n : 0;
}

/* The unsigned number after "@key": in @p; -1 if there is none. */
static int get_u64(const char *p, const char *key, uint64_t *v)
{
	const char *at = strstr(p, key);
	char *end;

	if (!at)
		return -1;
	at += strlen(key);
	if (*at < '0' || *at > '9')
		return -1;
	*v = strtoull(at, &end, 10);
	return end == at ? -1 : 0;
}

int lease_parse(const void *payload, size_t len, struct lease *l)
{
	char buf[256];
	const char *h, *q;
	uint64_t ttl;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, payload, len);
	buf[len] = 0;
	h = strstr(buf, "\"holder\":\"");
	if (!h)
		return -1;
	h += 10;
	q = strchr(h, '"');
	if (!q || q - h > LEASE_NAME_MAX)
		return -1;
	memcpy(l->holder, h, (size_t)(q - h));
	l->holder[q - h] = 0;
	if ((*l->holder && !lease_name_ok(l->holder)) ||
	    get_u64(buf, "\"token\":", &l->token) ||
	    get_u64(buf, "\"ttl_ms\":", &ttl) || ttl > 600000 || !ttl)
		return -1;
	l->ttl_ms = (uint32_t)ttl;
	return 0;
}

int lease_name_ok(const char *name)
{
	size_t i, n = strlen(name);

	if (!n || n > LEASE_NAME_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= 'A' && name[i] <= 'Z') ||
		      (name[i] >= '0' && name[i] <= '9') ||
		      name[i] == '.' || name[i] == '_' || name[i] == '-'))
			return 0;
	return 1;
}

int lease_beats(uint64_t token, const char *holder, uint64_t our_token,
		const char *us)
{
	return token > our_token ||
	       (token == our_token && strcmp(holder, us) < 0);
}

/* FNV-1a of "@name/@shard": a verifier's rank for a shard. */
static uint64_t rank(const char *name, uint32_t shard)
{
	char buf[LEASE_NAME_MAX + 16];
	uint64_t h = 14695981039346656037ull;
	const char *p;

	snprintf(buf, sizeof(buf), "%s/%u", name, (unsigned int)shard);
	for (p = buf; *p; p++)
		h = (h ^ (uint8_t)*p) * 1099511628211ull;
	return h;
}

/*
 * Rendezvous hashing alone spreads shards unevenly when there are few of
 * them (8 shards on 2 verifiers: 6 and 2 is common), and rebalancing
 * hands over only what this assignment moves, so it caps each verifier
 * at ceil(shards / n): shard by shard in order, the highest-ranked live
 * verifier below the cap. Every verifier that sees the same live set
 * (in any order) computes the same owners; a join moves only the shards
 * the joiner ranks first for, up to its share.
 */
void lease_assign(const char *const *live, size_t n, uint32_t shards,
		  uint32_t *owner, uint32_t *count)
{
	uint32_t cap = (uint32_t)((shards + n - 1) / n), s;
	uint64_t r, top;
	size_t i, best;

	memset(count, 0, n * sizeof(*count));
	for (s = 0; s < shards; s++) {
		best = n;
		top = 0;
		for (i = 0; i < n; i++) {
			if (count[i] >= cap)
				continue;
			r = rank(live[i], s);
			if (best == n || r > top ||
			    (r == top && strcmp(live[i], live[best]) < 0)) {
				best = i;
				top = r;
			}
		}
		owner[s] = (uint32_t)best;
		count[best]++;
	}
}
