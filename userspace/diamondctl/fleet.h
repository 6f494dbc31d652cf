/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* open --mqtt --fleet: a verifier sharing a fleet's shards (fleet.c). */
#ifndef DIAMONDCTL_FLEET_H
#define DIAMONDCTL_FLEET_H

#include <stdint.h>

#include <diamond/libdiamond.h>

#include "mqtt.h"

#define FLEET_DEFAULT_LEASE_MS	3000

struct fleet_opts {
	const char *dir;	/* the shared store: DIR/<shard> each */
	const char *name;	/* this verifier, unique in the fleet */
	const char *shards;	/* the shards it may take (NULL: all) */
	uint32_t lease_ms;
	int no_rebalance;	/* keep what it holds when a verifier joins */
};

/* Run until SIGTERM; an exit status. */
int fleet_run(const struct diamond_gw_opts *go, const struct mq_opts *mo,
	      const struct fleet_opts *fo);

#endif
