/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A verifier's packet side (verifier_packets.c): the packet receiver
 * (diamond_prx) of the packet-mode devices of its state directory, fed
 * from the P/packets/<shard>/+ topics, its readings and losses into the
 * verifier's outbox.
 */
#ifndef DIAMONDCTL_VERIFIER_PACKETS_H
#define DIAMONDCTL_VERIFIER_PACKETS_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/libdiamond.h>

#include "outbox.h"

struct vpk;

/* Where a verifier's packet side puts what it releases. */
struct vpk_out {
	struct outbox *ob;	/* readings and events, as the stream path's */
	const char *prefix;	/* topic prefix P */
	uint32_t shards;	/* N */
	/* the verifier's stage: 0 once the outbox is durable */
	int (*stage)(void *arg);
	void *arg;
};

/*
 * The receiver of the packet-mode devices of @dir (a shared directory:
 * every state write fenced by @fence, if not NULL), verifying in software
 * (@software) or through diamond.ko's tag grid. What an earlier run
 * spooled (DIR/spool/packets) is fed first. 0 with *@out NULL when @dir
 * has no packet-mode device, 0 with *@out, or a -errno (*@why: what it
 * is about).
 */
int vpk_open(struct vpk **out, const char *dir, int software,
	     struct diamond_fence *fence, const struct vpk_out *o,
	     const char **why);
/* Its packet-mode devices. */
size_t vpk_devices(const struct vpk *p);
/*
 * Hold packet @pkt (@len bytes, copied) to be fed by vpk_flush(): 0, or
 * -ENOBUFS when the held packets fill the buffer (flush first).
 */
int vpk_hold(struct vpk *p, const uint8_t *pkt, size_t len);
/* Packets held, not yet fed. */
uint64_t vpk_held(const struct vpk *p);
/* Forget the held packets (the shard is no longer ours). */
void vpk_forget(struct vpk *p);
/*
 * Feed the held packets, in order, each released reading and loss into
 * the outbox, staged before the state that passes it is saved, then sync
 * the receiver's spool (the packets of units not yet decided). 0, or the
 * -errno of a storage, fence (-ESTALE) or stage failure: then nothing
 * more is fed, and what it left is not durable.
 */
int vpk_flush(struct vpk *p);
/* The summary line (olog_info). */
void vpk_summary(const struct vpk *p);
/* Erase every key and held packet, and free. */
void vpk_close(struct vpk *p);

#endif
