/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * One verifier session (open_mqtt.c): a gateway, its outbox and its MQTT
 * session, driven one round at a time. open --mqtt runs one for all its
 * shards; a fleet verifier (fleet.c) one per shard it holds, in the
 * shard's shared, fenced directory.
 */
#ifndef DIAMONDCTL_VERIFIER_H
#define DIAMONDCTL_VERIFIER_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/libdiamond.h>

#include "mqtt.h"

struct vf;

/*
 * The gateway of @go (its spool taken up, its outbox's debt published
 * first) and a persistent session @mo->client_id on the frames of
 * @shards ("0,2,5-7"; NULL: all). With @fence (taken), the directory is
 * a fleet's shard: go->flags must hold DIAMOND_GW_SHARED, and every write
 * there is fenced. NULL after a message; *@usage set on a bad @shards.
 */
struct vf *vf_start(const struct diamond_gw_opts *go, struct mq_opts *mo,
		    const char *shards, struct diamond_fence *fence,
		    int *usage);
/* The frames session's socket, or -1 while it is away. */
int vf_socket(const struct vf *v);
/* The readings' session's socket (<ID>-out), or -1 while it is away. */
int vf_out_socket(const struct vf *v);
/*
 * One round: read what the broker sent, feed it, make it durable, then
 * publish and acknowledge; or a reconnect when the session is away.
 * Waits at most @timeout_ms for the broker.
 */
void vf_step(struct vf *v, int timeout_ms);
/* 0, or the -errno that stopped it (-ESTALE: a newer holder's shard). */
int vf_error(const struct vf *v);
/* The file vf_error() is about (a spool, state file, outbox), or "". */
const char *vf_failure(const struct vf *v);
/* Readings and events the broker has not acknowledged yet. */
size_t vf_owed(const struct vf *v);
/* Frames read but not fed because the shard was no longer ours. */
uint64_t vf_refused(const struct vf *v);
/*
 * A handover's last round: what the broker already sent is read, fed,
 * made durable (spool and outbox synced), and only then acknowledged;
 * after it nothing is fed or written on the session. 0, or the -errno
 * that stopped it (nothing acknowledged then); *@fed: the frames it read.
 */
int vf_handover(struct vf *v, uint64_t *fed);
/* After vf_handover(): read the outbox's PUBACKs; frames are left. */
void vf_drain(struct vf *v);
/* After vf_handover(): is the outbox acknowledged (or the session gone)? */
int vf_drained(const struct vf *v);
/* Frames read after vf_handover(), left to the next holder. */
uint64_t vf_left(const struct vf *v);
/*
 * The summary line, then the end: with @graceful (and no error) the
 * session is disconnected after the last PUBACKs; without, the socket
 * closes with nothing more written. Everything is freed, the gateway's
 * device states erased.
 */
void vf_stop(struct vf *v, int graceful);

#endif
