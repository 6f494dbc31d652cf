/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The verifier's outbox (outbox.c): the messages it owes the broker,
 * durable before the frames that produced them are acknowledged.
 */
#ifndef DIAMONDCTL_OUTBOX_H
#define DIAMONDCTL_OUTBOX_H

#include <stddef.h>

#define OUTBOX_MAX_TOPIC	512
#define OUTBOX_MAX_PAYLOAD	(1u << 20)
/*
 * Messages published and not yet acknowledged, at most: the rest wait in
 * the outbox, so libmosquitto's queue (and the message IDs in use) stay
 * this small however much is owed.
 */
#define OUTBOX_WINDOW		256

struct outbox;

/* Publish one message, QoS 1; 0 with *@mid set, else non-zero. */
typedef int (*outbox_pub_fn)(void *arg, const char *topic, const void *p,
			     size_t len, int *mid);

/*
 * Open (or create) DIR/mqtt/outbox. What an earlier run left in it is
 * owed again: it goes out with the first outbox_send(). 0 or -errno.
 */
int outbox_open(struct outbox **ob, const char *state_dir);
void outbox_close(struct outbox *ob);
struct diamond_fence;
/*
 * A shard's outbox in its shared directory: every write from now on under
 * @fence (libdiamond.h), none once it is refused (outbox_sync(): -ESTALE).
 */
void outbox_set_fence(struct outbox *ob, struct diamond_fence *fence);
/* Owe a message (not durable until outbox_sync()). 0 or -errno. */
int outbox_add(struct outbox *ob, const char *topic, const void *p,
	       size_t len);
/*
 * Make every message added durable (write, fdatasync). 0 or -errno; after
 * a failure the file is rewritten from memory by the next call.
 */
int outbox_sync(struct outbox *ob);
/* Publish durable messages not yet published, up to OUTBOX_WINDOW in flight. */
void outbox_send(struct outbox *ob, outbox_pub_fn pub, void *arg);
/* The broker acknowledged @mid: that message is no longer owed. */
void outbox_acked(struct outbox *ob, int mid);
/* Messages owed (added and not yet acknowledged). */
size_t outbox_owed(const struct outbox *ob);
/* Of them, published and awaiting their PUBACK. */
size_t outbox_inflight(const struct outbox *ob);
/* DIR/mqtt/outbox, for messages. */
const char *outbox_path(const struct outbox *ob);

#endif
