// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamondctl open: what the gateway tells its operator on stderr. Each
 * kind of message (a rejection reason, a kind of bad input, the serial
 * port) has its own token bucket of --log-rate lines per second, so a
 * flood of junk cannot drown stderr or the disk behind it; a line that
 * passes says how many of its kind were suppressed before it, and the
 * run's summary gives the total. With --json-errors (before or after
 * "open") every message is a JSON object on one line instead of text:
 * err_msg()'s {"error":MESSAGE,"command":"open"} with "kind" (rejected,
 * frame, source, setup, summary), and where they apply "device", "epoch",
 * "group", "reason" and "suppressed"; the informational lines have "info" in place
 * of "error".
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "open.h"

struct bucket {
	double tokens;
	double last;		/* seconds, CLOCK_MONOTONIC */
	uint64_t suppressed;
};

static struct {
	unsigned int rate;	/* 0: unlimited */
	struct bucket b[OLOG_KINDS];
	uint64_t suppressed;
} lg;

void olog_setup(unsigned int rate)
{
	lg.rate = rate;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Take a token for @kind; 0 if the line must be suppressed. */
static int allow(int kind)
{
	struct bucket *b = &lg.b[kind];
	double t = now();

	if (!lg.rate || kind == OLOG_SETUP)
		return 1;
	if (b->last == 0)
		b->tokens = lg.rate;
	else
		b->tokens += (t - b->last) * lg.rate;
	if (b->tokens > lg.rate)
		b->tokens = lg.rate;
	b->last = t;
	if (b->tokens >= 1) {
		b->tokens -= 1;
		return 1;
	}
	b->suppressed++;
	lg.suppressed++;
	return 0;
}

/* One line: text, or JSON in the form err_msg() uses plus our fields. */
static void emit(const char *tag, const struct olog_ctx *c, const char *msg,
		 uint64_t suppressed)
{
	const char *cmd = json_errors();

	if (!cmd) {
		fprintf(stderr, "diamondctl: %s", msg);
		if (suppressed)
			fprintf(stderr, " (%llu similar lines suppressed)",
				(unsigned long long)suppressed);
		fputc('\n', stderr);
		return;
	}
	fprintf(stderr, "{\"%s\":\"", tag);
	json_string(stderr, msg);
	fputs("\",\"command\":\"", stderr);
	json_string(stderr, cmd);
	fprintf(stderr, "\",\"kind\":\"%s\"", c && c->what ? c->what : "setup");
	if (c && c->has_device)
		fprintf(stderr, ",\"device\":%u,\"epoch\":%llu",
			(unsigned int)c->device, (unsigned long long)c->epoch);
	if (c && c->has_group)
		fprintf(stderr, ",\"group\":%u", (unsigned int)c->group);
	if (c && c->reason)
		fprintf(stderr, ",\"reason\":\"%s\"", c->reason);
	if (suppressed)
		fprintf(stderr, ",\"suppressed\":%llu",
			(unsigned long long)suppressed);
	fputs("}\n", stderr);
}

void olog(int kind, const struct olog_ctx *c, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!allow(kind))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	emit("error", c, msg, lg.b[kind].suppressed);
	lg.b[kind].suppressed = 0;
}

void olog_info(int level, const struct olog_ctx *c, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (verbosity < level)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	emit("info", c, msg, 0);
}

uint64_t olog_suppressed(void)
{
	return lg.suppressed;
}
