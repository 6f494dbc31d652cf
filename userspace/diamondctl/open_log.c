// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamondctl open: what the gateway tells its operator on stderr. Each
 * kind of message (a rejection reason, a kind of bad input, the serial
 * port) has its own token bucket of --log-rate lines per second, so a
 * flood of junk cannot drown stderr or the disk behind it; a line that
 * passes says how many of its kind were suppressed before it, and the
 * run's summary gives the total. With --json-errors every message is a
 * JSON object on one line instead of text.
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
	int json;
	unsigned int rate;	/* 0: unlimited */
	struct bucket b[OLOG_KINDS];
	uint64_t suppressed;
} lg;

void olog_setup(int json, unsigned int rate)
{
	lg.json = json;
	lg.rate = rate;
}

int olog_json(void)
{
	return lg.json;
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

static void json_str(const char *s)
{
	fputc('"', stderr);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(stderr, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(stderr, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, stderr);
	}
	fputc('"', stderr);
}

void olog(int kind, const struct olog_ctx *c, const char *fmt, ...)
{
	struct bucket *b = &lg.b[kind];
	char msg[1024];
	va_list ap;

	if (!allow(kind))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!lg.json) {
		fprintf(stderr, "diamondctl: %s", msg);
		if (b->suppressed)
			fprintf(stderr, " (%llu similar lines suppressed)",
				(unsigned long long)b->suppressed);
		fputc('\n', stderr);
	} else {
		fputs("{\"error\":", stderr);
		json_str(c && c->what ? c->what : "setup");
		if (c && c->has_device)
			fprintf(stderr, ",\"device\":%u,\"epoch\":%llu",
				(unsigned int)c->device,
				(unsigned long long)c->epoch);
		if (c && c->reason)
			fprintf(stderr, ",\"reason\":\"%s\"", c->reason);
		fputs(",\"message\":", stderr);
		json_str(msg);
		if (b->suppressed)
			fprintf(stderr, ",\"suppressed\":%llu",
				(unsigned long long)b->suppressed);
		fputs("}\n", stderr);
	}
	b->suppressed = 0;
}

uint64_t olog_suppressed(void)
{
	return lg.suppressed;
}
