// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * frame-check: host-side checker for the firmware's telemetry, built on the
 * portable core's receiver. It reads the byte streams of one or more runs
 * of a device (one file per boot; a stream cut by a reset ends in a partial
 * frame), and checks the properties the reset test needs:
 *
 *   - no (device, epoch, index) is ever sealed twice, no epoch or group
 *     closed twice;
 *   - within a run, epochs only go forward;
 *   - every unit with its tag frame and all its records verifies under the
 *     gateway state from --key, with the core's group receiver (spec
 *     section 9.1; the blob's group size g, 0 = b): each group tag frame's
 *     g records, then each epoch's final group with its epoch tag; units
 *     in order, lost ones skipped. With g = b this is dmd_open() per epoch.
 *
 *   frame-check --key BLOB [--key BLOB ...] [--readings] [--max-lost N] FILE...
 *
 * Prints TAP 13; exit status 0 when every check passes.
 *
 *   frame-check --list FILE...
 *
 * only parses: one line "frame TYPE SUITE DEVICE EPOCH INDEX LEN" per frame,
 * then "skipped N cut M" (selftests/core/test_frame.c holds it to the core).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/core.h>
#include <diamond/frame.h>

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
 * Parse one run with core/frame.c, the gateway's parser: a byte where no
 * valid frame starts is skipped up to the next possible sync; a frame the
 * run ends inside (a reset cut it) counts as cut. Returns the bytes skipped.
 */
static size_t parse_run(const uint8_t *b, size_t n, unsigned int run,
			size_t *cut)
{
	size_t i = 0, skipped = 0, s;
	struct dmd_frame d;
	int rc;

	while (i < n) {
		rc = dmd_frame_next(&d, b + i, n - i, &s);
		skipped += s;
		i += s;
		if (rc == 0) {
			*cut += n - i;
			break;
		}
		if (nframes == cap) {
			cap = cap ? 2 * cap : 256;
			frames = realloc(frames, cap * sizeof(*frames));
			if (!frames)
				exit(1);
		}
		frames[nframes++] = (struct frame){ d.type, d.suite,
			d.device_id, d.epoch, d.index, d.len, d.payload, run };
		i += (size_t)rc;
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

/* The gateway of one device: the core's group receiver on its key. */
struct device {
	struct dmd_receiver rx;
	uint32_t id;
};

static struct device devices[16];
static unsigned int ndevices;
static size_t verified, verified_groups, rejected, incomplete, lost;
static unsigned int readings;

static struct device *device_of(uint32_t id)
{
	unsigned int k;

	for (k = 0; k < ndevices; k++)
		if (devices[k].id == id)
			return &devices[k];
	return NULL;
}

/*
 * The ciphertext of records @first .. @first + @count - 1 among the sorted
 * record frames @r[0 .. @nr), as a body, then the tag at the end of @tag's
 * payload. NULL when a record is missing.
 */
static uint8_t *unit_body(const struct frame *r, size_t nr, uint32_t first,
			  uint32_t count, const struct frame *tag, size_t *len)
{
	size_t k = 0, body = DMD_TAG_SIZE, pos = 0, j;
	const struct frame **rec = malloc((count ? count : 1) * sizeof(*rec));
	uint8_t *ct;

	for (j = 0; j < count; j++) {
		while (k < nr && r[k].field < first + j)
			k++;
		if (k == nr || r[k].field != first + j) {
			free(rec);
			return NULL;
		}
		rec[j] = &r[k];
		body += DMD_BODY_LEN_SIZE + r[k].len;
	}
	ct = malloc(body);
	for (j = 0; j < count; j++) {
		ct[pos] = (uint8_t)rec[j]->len;
		ct[pos + 1] = (uint8_t)(rec[j]->len >> 8);
		memcpy(ct + pos + 2, rec[j]->payload, rec[j]->len);
		pos += DMD_BODY_LEN_SIZE + rec[j]->len;
	}
	memcpy(ct + pos, tag->payload + tag->len - DMD_TAG_SIZE, DMD_TAG_SIZE);
	free(rec);
	*len = body;
	return ct;
}

/* Verify one unit: @tag is a group tag frame (type 3) or an epoch tag. */
static void open_unit(struct device *d, const struct frame *r, size_t nr,
		      const struct frame *tag)
{
	uint32_t g = d->rx.g, b = d->rx.st.b, first, count, j;
	int final = tag->type == DMD_FRAME_TAG;
	size_t len, pos;
	uint8_t *ct, *pt;
	int rc;

	/* Spec 5.1: q = floor(n/g) non-final groups (n < b), or (b-1)/g. */
	first = final ? (tag->field < b ? tag->field / g : (b - 1) / g) * g :
			(uint32_t)tag->field * g;
	count = final ? tag->field - first : g;
	ct = unit_body(r, nr, first, count, tag, &len);
	if (!ct) {
		printf("# device %u epoch %llu %s %u: incomplete\n", tag->device,
		       (unsigned long long)tag->epoch, final ? "count" : "group",
		       tag->field);
		incomplete++;
		return;
	}
	pt = malloc(len);
	if (final)
		rc = dmd_receiver_close(&d->rx, tag->epoch, tag->field,
					tag->payload, tag->len - DMD_TAG_SIZE,
					ct, len, pt);
	else
		rc = dmd_receiver_group(&d->rx, tag->epoch, tag->field,
					tag->payload, tag->len - DMD_TAG_SIZE,
					ct, len, pt);
	if (rc) {
		printf("# device %u epoch %llu %s %u: rejected (%d)\n",
		       tag->device, (unsigned long long)tag->epoch,
		       final ? "count" : "group", tag->field, rc);
		rejected++;
	} else {
		verified += final;
		verified_groups += !final;
		for (j = 0, pos = 0; readings && j < count; j++) {
			size_t n = pt[pos] | (size_t)pt[pos + 1] << 8;

			print_reading(tag->device, tag->epoch, first + j,
				      pt + pos + 2, n);
			pos += 2 + n;
		}
	}
	free(ct);
	free(pt);
}

/*
 * One (device, epoch): frames @f[0 .. @n), sorted records, epoch tags,
 * group tags. Groups in order, then the final group.
 */
static void open_epoch(const struct frame *f, size_t n)
{
	struct device *d = device_of(f->device);
	size_t nr = 0, k;
	const struct frame *tag = NULL;

	while (nr < n && f[nr].type == DMD_FRAME_RECORD)
		nr++;
	for (k = nr; k < n; k++)
		if (f[k].type == DMD_FRAME_TAG && !tag)
			tag = &f[k];
	if (!d) {
		printf("# device %u: no key\n", f->device);
		incomplete++;
		return;
	}
	for (k = nr; k < n; k++)
		if (f[k].type == DMD_FRAME_GROUP &&
		    (k == nr || f[k - 1].type != DMD_FRAME_GROUP ||
		     f[k - 1].field != f[k].field))
			open_unit(d, f, nr, &f[k]);
	if (tag)
		open_unit(d, f, nr, tag);
	else
		lost++;
}

int main(int argc, char **argv)
{
	struct dmd_state st;
	unsigned int runs = 0, list = 0;
	long max_lost = -1;
	size_t cut = 0, skipped = 0, i, e0, records = 0, tags = 0, gtags = 0;
	size_t dup_rec = 0, dup_tag = 0, dup_group = 0, backwards = 0;
	uint8_t blob[DMD_BLOB2_MAX + 1];

	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--key") && a + 1 < argc) {
			FILE *f = fopen(argv[++a], "rb");
			size_t n = f ? fread(blob, 1, sizeof(blob), f) : 0;

			if (f)
				fclose(f);
			if (ndevices == 16 || dmd_blob_parse(&st, blob, n) ||
			    dmd_receiver_init(&devices[ndevices].rx, &st,
					      st.group ? st.group : st.b,
					      DMD_DEFAULT_MAX_SKIP)) {
				fprintf(stderr, "frame-check: bad key %s\n", argv[a]);
				return 2;
			}
			devices[ndevices++].id = st.device_id;
		} else if (!strcmp(argv[a], "--max-lost") && a + 1 < argc) {
			max_lost = strtol(argv[++a], NULL, 0);
		} else if (!strcmp(argv[a], "--readings")) {
			readings = 1;
		} else if (!strcmp(argv[a], "--list")) {
			list = 1;
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
	if (list) {
		for (i = 0; i < nframes; i++)
			printf("frame %u %u %u %llu %u %u\n", frames[i].type,
			       frames[i].suite, frames[i].device,
			       (unsigned long long)frames[i].epoch,
			       frames[i].field, frames[i].len);
		printf("skipped %zu cut %zu\n", skipped, cut);
		return 0;
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
		gtags += frames[i].type == DMD_FRAME_GROUP;
	}
	printf("# %u runs, %zu record frames, %zu tag frames, %zu group tag frames, %zu bytes cut by resets, %zu bytes skipped\n",
	       runs, records, tags, gtags, cut, skipped);
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
		if (f->type == DMD_FRAME_GROUP && p->field == f->field)
			dup_group++;
	}
	tap(dup_rec == 0, "no (epoch, index) sealed twice (%zu duplicates)", dup_rec);
	tap(dup_tag == 0, "no epoch closed twice (%zu duplicates)", dup_tag);
	if (gtags)
		tap(dup_group == 0, "no group closed twice (%zu duplicates)",
		    dup_group);

	/* The gateway: each device's epochs in order; frames are sorted. */
	for (i = 0; i < nframes;) {
		e0 = i;
		while (i < nframes && frames[i].device == frames[e0].device &&
		       frames[i].epoch == frames[e0].epoch)
			i++;
		open_epoch(&frames[e0], i - e0);
	}
	printf("# %zu epochs and %zu groups verified, %zu units rejected, %zu incomplete, %zu epochs lost to resets\n",
	       verified, verified_groups, rejected, incomplete, lost);
	tap(verified > 0 && rejected == 0 && incomplete == 0,
	    "every completed epoch verifies (%zu verified, %zu rejected, %zu incomplete)",
	    verified, rejected, incomplete);
	if (gtags)
		tap(verified_groups == gtags - dup_group && rejected == 0,
		    "every group tag frame's group verifies with the group receiver (%zu of %zu)",
		    verified_groups, gtags - dup_group);
	if (max_lost >= 0)
		tap((long)lost <= max_lost,
		    "each reset cost at most one epoch (%zu epochs lost, %ld resets)",
		    lost, max_lost);
	printf("1..%u\n", tests);
	return failed ? 1 : 0;
}
