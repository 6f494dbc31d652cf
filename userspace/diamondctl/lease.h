/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* A fleet's lease messages (lease.c). */
#ifndef DIAMONDCTL_LEASE_H
#define DIAMONDCTL_LEASE_H

#include <stddef.h>
#include <stdint.h>

#define LEASE_NAME_MAX	64	/* a verifier's name: [A-Za-z0-9._-] */

struct lease {
	char holder[LEASE_NAME_MAX + 1];	/* "": given back */
	uint64_t token;
	uint32_t ttl_ms;
};

/* The JSON of a lease into @out; its length, or 0 if it does not fit. */
size_t lease_format(char *out, size_t size, const char *holder,
		    uint64_t token, uint32_t ttl_ms);
/* A lease message into @l; 0, or -1 for anything else. */
int lease_parse(const void *payload, size_t len, struct lease *l);
/* [A-Za-z0-9._-]{1,64}. */
int lease_name_ok(const char *name);
/*
 * Does a claim (@token, @holder) win over ours (@our_token, @us)? The
 * total order: the larger token, then the smaller name.
 */
int lease_beats(uint64_t token, const char *holder, uint64_t our_token,
		const char *us);
/*
 * Who of the @n (at least one) live verifiers should hold each of
 * @shards: @owner[s] an index into @live; at most ceil(@shards / @n)
 * each (@count[i]: how many verifier i got), rendezvous ranks deciding
 * within that, so every verifier seeing the same set agrees (lease.c).
 */
void lease_assign(const char *const *live, size_t n, uint32_t shards,
		  uint32_t *owner, uint32_t *count);

#endif
