// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * frame-check: host-side checker for the firmware's telemetry, built on the
 * portable core's receiver. It reads the byte streams of one or more runs
 * of a device (one file per boot; a stream cut by a reset ends in a partial
 * frame), and checks the properties the reset test needs:
 *
 *   - no (device, epoch, index) is ever sealed twice, no epoch closed twice;
 *   - within a run, epochs only go forward;
 *   - every epoch with a tag frame and all its records verifies under the
 *     gateway state from --key (dmd_open, epochs in order, lost ones
 *     skipped), and the gateway ends past the last completed epoch.
 *
 *   frame-check --key BLOB [--key BLOB ...] [--readings] [--max-lost N] FILE...
 *
 * Prints TAP 13; exit status 0 when every check passes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../include/diamond/core.h"
#include "../../include/diamond/frame.h"

struct frame {
	uint8_t type, suite;
	uint32_t device;
	uint64_t epoch;
	uint16_t field, len;
	const uint8_t *payload;
	unsigned int run;
};

static struct frame *frames;
static size_t nframes, cap;
static unsigned int tests, failed;

static void tap(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#include <stdarg.h>
static void tap(int ok, const char *fmt, ...)
{
	va_list ap;

	tests++;
	failed += !ok;
	printf("%sok %u - ", ok ? "" : "not ", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * Parse one run with the one frame parser, core/frame.c, resynchronising
 * as spec section 8.1 says; returns how many bytes were skipped. Group tag
 * frames (type 3) are valid frames but not this checker's business.
 */
static size_t parse_run(const uint8_t *b, size_t n, unsigned int run,
			size_t *cut)
{
	size_t i = 0, skipped = 0, step;
	struct dmd_frame d;
	struct frame f;
	int rc;

	while (i < n) {
		rc = dmd_frame_parse(&d, b + i, n - i);
		if (rc == 0) {		/* a frame cut short by the reset */
			*cut += n - i;
			break;
		}
		if (rc < 0) {
			step = dmd_frame_sync(b + i, n - i);
			skipped += step;
			i += step;
			continue;
		}
		i += (size_t)rc;
		if (d.type == DMD_FRAME_GROUP)
			continue;
		f.type = d.type;
		f.suite = d.suite;
		f.device = d.device_id;
		f.epoch = d.epoch;
		f.field = d.index;
		f.len = d.len;
		f.payload = d.payload;
		f.run = run;
		if (nframes == cap) {
			cap = cap ? 2 * cap : 256;
			frames = realloc(frames, cap * sizeof(*frames));
			if (!frames)
				exit(1);
		}
		frames[nframes++] = f;
	}
	return skipped;
}

static int cmp_frame(const void *a, const void *b)
{
	const struct frame *x = a, *y = b;

	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	if (x->epoch != y->epoch)
		return x->epoch < y->epoch ? -1 : 1;
	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	if (x->field != y->field)
		return x->field < y->field ? -1 : 1;
	return x->run < y->run ? -1 : x->run > y->run;
}

static void print_reading(uint32_t dev, uint64_t epoch, unsigned int j,
			  const uint8_t *m, size_t len)
{
	int16_t t;

	if (len < 16 || m[0] != 1) {
		printf("# device %u epoch %llu record %u: %zu bytes\n", dev,
		       (unsigned long long)epoch, j, len);
		return;
	}
	t = (int16_t)le(m + 8, 2);
	printf("# device %u epoch %llu record %u: sample %u temp %d.%02d C humidity %u.%02u %% pressure %u Pa%s\n",
	       dev, (unsigned long long)epoch, j, (unsigned int)le(m + 4, 4),
	       t / 100, abs(t % 100), (unsigned int)le(m + 10, 2) / 100,
	       (unsigned int)le(m + 10, 2) % 100, (unsigned int)le(m + 12, 4),
	       m[1] & 1 ? " (first after boot)" : "");
}

int main(int argc, char **argv)
{
	struct dmd_state keys[16];
	unsigned int nkeys = 0, runs = 0, readings = 0, k;
	long max_lost = -1;
	size_t cut = 0, skipped = 0, i, j, records = 0, tags = 0;
	size_t dup_rec = 0, dup_tag = 0, backwards = 0;
	size_t verified = 0, rejected = 0, incomplete = 0, lost = 0;
	uint8_t blob[DMD_BLOB2_MAX + 1];

	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--key") && a + 1 < argc) {
			FILE *f = fopen(argv[++a], "rb");
			size_t n = f ? fread(blob, 1, sizeof(blob), f) : 0;

			if (f)
				fclose(f);
			if (nkeys == 16 || dmd_blob_parse(&keys[nkeys], blob, n)) {
				fprintf(stderr, "frame-check: bad key %s\n", argv[a]);
				return 2;
			}
			nkeys++;
		} else if (!strcmp(argv[a], "--max-lost") && a + 1 < argc) {
			max_lost = strtol(argv[++a], NULL, 0);
		} else if (!strcmp(argv[a], "--readings")) {
			readings = 1;
		} else {
			FILE *f = fopen(argv[a], "rb");
			uint8_t *buf;
			long n;

			if (!f) {
				perror(argv[a]);
				return 2;
			}
			fseek(f, 0, SEEK_END);
			n = ftell(f);
			rewind(f);
			buf = malloc((size_t)n + 1);
			if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
				return 2;
			fclose(f);
			skipped += parse_run(buf, (size_t)n, runs++, &cut);
		}
	}
	printf("TAP version 13\n");

	/* Within a run the device only moves forward. */
	for (i = 1; i < nframes; i++)
		if (frames[i].run == frames[i - 1].run &&
		    frames[i].device == frames[i - 1].device &&
		    frames[i].epoch < frames[i - 1].epoch)
			backwards++;
	for (i = 0; i < nframes; i++) {
		records += frames[i].type == DMD_FRAME_RECORD;
		tags += frames[i].type == DMD_FRAME_TAG;
	}
	printf("# %u runs, %zu record frames, %zu tag frames, %zu bytes cut by resets, %zu bytes skipped\n",
	       runs, records, tags, cut, skipped);
	tap(runs > 0 && tags > 0, "frames parsed from %u runs", runs);
	tap(backwards == 0, "epochs only move forward within a run (%zu violations)",
	    backwards);

	qsort(frames, nframes, sizeof(*frames), cmp_frame);
	for (i = 1; i < nframes; i++) {
		const struct frame *p = &frames[i - 1], *f = &frames[i];

		if (p->device != f->device || p->epoch != f->epoch ||
		    p->type != f->type)
			continue;
		if (f->type == DMD_FRAME_RECORD && p->field == f->field) {
			printf("# (device %u, epoch %llu, index %u) sealed twice\n",
			       f->device, (unsigned long long)f->epoch, f->field);
			dup_rec++;
		}
		if (f->type == DMD_FRAME_TAG)
			dup_tag++;
	}
	tap(dup_rec == 0, "no (epoch, index) sealed twice (%zu duplicates)", dup_rec);
	tap(dup_tag == 0, "no epoch closed twice (%zu duplicates)", dup_tag);

	/* The gateway: each device's epochs in order; frames are sorted. */
	for (i = 0; i < nframes;) {
		size_t e0 = i, ntag = SIZE_MAX, n, body = 0, pos = 0;
		const struct frame *f = &frames[i];
		struct dmd_state *st = NULL;
		uint8_t *ct, *pt;
		int rc;

		while (i < nframes && frames[i].device == f->device &&
		       frames[i].epoch == f->epoch)
			i++;
		for (j = e0; j < i; j++)
			if (frames[j].type == DMD_FRAME_TAG)
				ntag = j;
		if (ntag == SIZE_MAX) {
			lost++;
			continue;
		}
		for (k = 0; k < nkeys; k++)
			if (keys[k].device_id == f->device)
				st = &keys[k];
		n = frames[ntag].field;
		/* Records 0..n-1 are frames e0..e0+n-1 when all arrived. */
		for (j = 0; j < n; j++) {
			if (e0 + j >= ntag || frames[e0 + j].field != j)
				break;
			body += 2 + frames[e0 + j].len;
		}
		if (j != n || ntag != e0 + n || !st) {
			printf("# device %u epoch %llu: incomplete (%zu of %zu records)\n",
			       f->device, (unsigned long long)f->epoch, j, n);
			incomplete++;
			continue;
		}
		body += DMD_TAG_SIZE;
		ct = malloc(body);
		pt = malloc(body);
		for (j = 0; j < n; j++) {
			const struct frame *r = &frames[e0 + j];

			ct[pos] = (uint8_t)r->len;
			ct[pos + 1] = (uint8_t)(r->len >> 8);
			memcpy(ct + pos + 2, r->payload, r->len);
			pos += 2 + r->len;
		}
		memcpy(ct + pos, frames[ntag].payload + frames[ntag].len - DMD_TAG_SIZE,
		       DMD_TAG_SIZE);
		rc = dmd_open(st, f->epoch, frames[ntag].payload,
			      frames[ntag].len - DMD_TAG_SIZE, ct, body, pt,
			      DMD_DEFAULT_MAX_SKIP);
		if (rc) {
			printf("# device %u epoch %llu: rejected (%d)\n", f->device,
			       (unsigned long long)f->epoch, rc);
			rejected++;
		} else {
			verified++;
			for (j = 0, pos = 0; readings && j < n; j++) {
				size_t len = pt[pos] | (size_t)pt[pos + 1] << 8;

				print_reading(f->device, f->epoch, (unsigned int)j,
					      pt + pos + 2, len);
				pos += 2 + len;
			}
		}
		free(ct);
		free(pt);
	}
	printf("# %zu epochs verified, %zu rejected, %zu incomplete, %zu lost to resets\n",
	       verified, rejected, incomplete, lost);
	tap(verified > 0 && rejected == 0 && incomplete == 0,
	    "every completed epoch verifies (%zu verified, %zu rejected, %zu incomplete)",
	    verified, rejected, incomplete);
	if (max_lost >= 0)
		tap((long)lost <= max_lost,
		    "each reset cost at most one epoch (%zu epochs lost, %ld resets)",
		    lost, max_lost);
	printf("1..%u\n", tests);
	return failed ? 1 : 0;
}
