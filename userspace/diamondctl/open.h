/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* diamondctl open: the gateway's files (open*.c, metrics.c). */
#ifndef DIAMONDCTL_OPEN_H
#define DIAMONDCTL_OPEN_H

#include <stdint.h>
#include <stdio.h>

#include "diamondctl.h"

/* ---- open_log.c: rate-limited messages, text or JSON lines ----------- */

/* Message kinds, one token bucket each: the rejection reasons first. */
enum {
	OLOG_FRAME_SYNC = DIAMOND_REASON_COUNT,	/* bytes without sync */
	OLOG_FRAME_TRUNC,			/* truncated frame */
	OLOG_FRAME_HDR,				/* malformed header */
	OLOG_SOURCE,				/* the input went away, came back */
	OLOG_SETUP,				/* never rate-limited */
	OLOG_KINDS
};

/* What a JSON line carries besides the message. */
struct olog_ctx {
	const char *what;	/* "rejected", "frame", "source", "setup" */
	const char *reason;	/* a diamond_reason_name() or NULL */
	int has_device;
	uint32_t device;
	uint64_t epoch;
	int has_group;
	uint32_t group;
};

void olog_setup(unsigned int lines_per_second);
/* An error, rate-limited per @kind. */
void olog(int kind, const struct olog_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Information shown at verbosity @level (1 normal, 0 with -q), unlimited. */
void olog_info(int level, const struct olog_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Lines suppressed by the rate limit so far. */
uint64_t olog_suppressed(void);

/* ---- open_src.c: the input --------------------------------------------- */

enum src_kind { SRC_FD, SRC_FILE, SRC_SERIAL, SRC_UDP };

struct src {
	enum src_kind kind;
	const char *name;	/* path, device or port */
	const char *bind;	/* --bind address for SRC_UDP */
	int fd;			/* -1 while a serial port is away */
};

/* Open @s; 0 or -1 after a message. */
int src_open(struct src *s);
/*
 * Read what @s has into @buf and feed it to @gw. Return: 1 fed or nothing
 * to do; 0 end of input (file, stdin); -1 a fatal error (message given).
 * A serial port that goes away is closed (s->fd = -1) and src_reopen()
 * brings it back.
 */
int src_pump(struct src *s, struct diamond_gw *gw, uint8_t *buf, size_t size);
/*
 * A gateway call failed with @rc: out of memory, or what could not be
 * made durable (diamond_gw_failure()); the message says so. Returns -1.
 */
int feed_failed(struct diamond_gw *gw, int rc);
/* Close a serial port whose path went away or now names another file. */
int src_check(struct src *s, struct diamond_gw *gw);
/* Try to open a serial port again; 1 if it is back. */
int src_reopen(struct src *s);
void src_close(struct src *s);

/* ---- open_json.c: decisions as JSON lines ----------------------------- */

/*
 * {"device":D,"epoch":E,"closed":true,"count":N,"released":[...],
 * "rejected":[runs]}: an epoch of a grouped device, summed up.
 */
void epoch_groups_json(FILE *f, const struct diamond_event *ev);
/*
 * {"device":D,"epoch":E,"event":"rejected"|"group_rejected"|"undecided",
 * ["group":G,["last":L,]"first":F,"count":C,]"reason":"..."}.
 */
void unit_event_json(FILE *f, const struct diamond_event *ev);

/* ---- open_mqtt.c: the verifier on a broker ----------------------------- */

struct mq_opts;
/* open --mqtt: the gateway @go fed from the broker; an exit status. */
int open_mqtt(const struct diamond_gw_opts *go, struct mq_opts *mo,
	      const char *shards);

/* ---- metrics.c: Prometheus text ---------------------------------------- */

/* Write the metrics to @path atomically (a temporary file renamed). */
int metrics_write_file(const struct diamond_gw *gw, const char *path);
/* A listening unix socket at @path (replacing a stale one), or -1. */
int metrics_listen(const char *path);
/* Answer one connection on @lfd with the metrics. */
void metrics_serve(const struct diamond_gw *gw, int lfd);

#endif
