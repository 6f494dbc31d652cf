// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Frames (spec section 8) through core/frame.c, table-driven: each header
 * is written, parsed back byte for byte, and every field out of its range
 * is refused; a frame cut short asks for more, a wrong sync resynchronises.
 *
 * With --frame-check PATH the same table goes through the firmware's frame
 * checker (embedded/tools/frame-check --list): for every case, cut short
 * and all cases in one stream, it must list exactly the frames, skipped
 * and cut bytes that the core's parser and resync find.
 *
 * With a file argument, the frame stream vectors (vectors/frames.txt, from
 * tools/vectors/gen-vectors --frames) run through the receiver's loop of
 * spec section 8.1 and must give their events exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <diamond/frame.h>
#include "tap.h"

struct frame_case {
	const char *what;
	uint8_t type, suite;
	uint64_t epoch;
	uint16_t index, len;
	int valid;
};

static const struct frame_case cases[] = {
	{ "record 0, empty", DMD_FRAME_RECORD, 1, 0, 0, 0, 1 },
	{ "record 65534, 4096 bytes", DMD_FRAME_RECORD, 2, 7, 65534, 4096, 1 },
	{ "record 65535", DMD_FRAME_RECORD, 2, 7, 65535, 16, 0 },
	{ "record of 4097 bytes", DMD_FRAME_RECORD, 1, 7, 3, 4097, 0 },
	{ "epoch tag n = 1, no AD", DMD_FRAME_TAG, 1, 1, 1, 16, 1 },
	{ "epoch tag n = 0", DMD_FRAME_TAG, 1, 1, 0, 16, 0 },
	{ "epoch tag, 15 bytes", DMD_FRAME_TAG, 1, 1, 4, 15, 0 },
	{ "epoch tag, AD of 1024", DMD_FRAME_TAG, 2, 1, 4, 1040, 1 },
	{ "epoch tag, AD of 1025", DMD_FRAME_TAG, 2, 1, 4, 1041, 0 },
	{ "group tag 0", DMD_FRAME_GROUP, 2, 3, 0, 16, 1 },
	{ "group tag 65533", DMD_FRAME_GROUP, 1, 3, 65533, 20, 1 },
	{ "group tag 65534", DMD_FRAME_GROUP, 1, 3, 65534, 20, 0 },
	{ "group tag, 15 bytes", DMD_FRAME_GROUP, 1, 3, 2, 15, 0 },
	{ "group tag, AD of 1025", DMD_FRAME_GROUP, 1, 3, 2, 1041, 0 },
	{ "type 0", 0, 1, 3, 2, 16, 0 },
	{ "type 4", 4, 1, 3, 2, 16, 0 },
	{ "suite 3", DMD_FRAME_RECORD, 3, 3, 2, 16, 0 },
	{ "epoch 2^64 - 3", DMD_FRAME_RECORD, 1, UINT64_MAX - 2, 2, 16, 1 },
	{ "epoch 2^64 - 2", DMD_FRAME_RECORD, 1, UINT64_MAX - 1, 2, 16, 0 },
};

static uint8_t buf[DMD_FRAME_HDR + 4200], payload[4200];

/* The header of @c by hand, as spec section 8 lays it out. */
static void raw_header(const struct frame_case *c)
{
	unsigned int i;

	buf[0] = 'D';
	buf[1] = 'F';
	buf[2] = c->type;
	buf[3] = c->suite;
	for (i = 0; i < 4; i++)
		buf[4 + i] = (uint8_t)(0x04030201u >> (8 * i));
	for (i = 0; i < 8; i++)
		buf[8 + i] = (uint8_t)(c->epoch >> (8 * i));
	buf[16] = (uint8_t)c->index;
	buf[17] = (uint8_t)(c->index >> 8);
	buf[18] = (uint8_t)c->len;
	buf[19] = (uint8_t)(c->len >> 8);
	memcpy(buf + DMD_FRAME_HDR, payload, c->len);
}

static void one(const struct frame_case *c)
{
	struct dmd_frame f = { c->type, c->suite, 0x04030201u, c->epoch,
			       c->index, c->len, payload }, g;
	uint8_t out[sizeof(buf)], hdr[DMD_FRAME_HDR];
	int w = dmd_frame_write(out, sizeof(out), &f), p;
	int h = dmd_frame_header(hdr, &f);
	size_t n = DMD_FRAME_HDR + (size_t)c->len;

	raw_header(c);
	p = dmd_frame_parse(&g, buf, n);
	if (c->valid) {
		tap_result(w == (int)n && !memcmp(out, buf, n) && p == (int)n &&
			   h == DMD_OK && !memcmp(hdr, buf, DMD_FRAME_HDR) &&
			   g.type == c->type && g.suite == c->suite &&
			   g.device_id == 0x04030201u && g.epoch == c->epoch &&
			   g.index == c->index && g.len == c->len &&
			   g.payload == buf + DMD_FRAME_HDR &&
			   dmd_frame_parse(&g, buf, n - 1) == 0 &&
			   dmd_frame_write(out, n - 1, &f) == DMD_ESPACE,
			   "%s: written as laid out, parsed back, short input "
			   "waits", c->what);
	} else {
		tap_result(w == DMD_EFORMAT && h == DMD_EFORMAT &&
			   p == DMD_EFORMAT,
			   "%s: refused by writer, header writer and parser",
			   c->what);
	}
}

#define NCASES (sizeof(cases) / sizeof(cases[0]))
#define LIST_MAX 8192

/*
 * What frame-check --list prints for @b, from the core: frames parsed in
 * order, a byte with no valid frame skipped to the next possible sync,
 * a frame the input ends inside counted as cut. Returns the frame count.
 */
static unsigned int core_list(const uint8_t *b, size_t n, char *out)
{
	size_t i = 0, skipped = 0, cut = 0, s, used = 0;
	unsigned int frames = 0;
	struct dmd_frame f;
	int rc;

	while (i < n) {
		rc = dmd_frame_parse(&f, b + i, n - i);
		if (rc == 0) {
			cut = n - i;
			break;
		}
		if (rc < 0) {
			s = dmd_frame_sync(b + i, n - i);
			skipped += s;
			i += s;
			continue;
		}
		used += (size_t)snprintf(out + used, LIST_MAX - used,
					 "frame %u %u %u %llu %u %u\n", f.type,
					 f.suite, f.device_id,
					 (unsigned long long)f.epoch, f.index,
					 f.len);
		frames++;
		i += (size_t)rc;
	}
	snprintf(out + used, LIST_MAX - used, "skipped %zu cut %zu\n", skipped,
		 cut);
	return frames;
}

/* frame-check --list over @b written to a file: its output, or "". */
static void checker_list(const char *checker, const uint8_t *b, size_t n,
			 char *out)
{
	char path[] = "/tmp/test-frame.XXXXXX", cmd[4200];
	size_t got = 0;
	FILE *p;
	int fd = mkstemp(path);

	out[0] = 0;
	if (fd < 0)
		return;
	if (write(fd, b, n) == (ssize_t)n) {
		snprintf(cmd, sizeof(cmd), "'%s' --list %s", checker, path);
		p = popen(cmd, "r");
		if (p) {
			got = fread(out, 1, LIST_MAX - 1, p);
			out[got] = 0;
			if (pclose(p))
				out[0] = 0;
		}
	}
	close(fd);
	unlink(path);
}

/* Both listings of @b agree; the core found @want frames. */
static int agree(const char *checker, const uint8_t *b, size_t n,
		 unsigned int want)
{
	static char core[LIST_MAX], chk[LIST_MAX];
	unsigned int found = core_list(b, n, core);

	checker_list(checker, b, n, chk);
	if (strcmp(core, chk))
		tap_diag("core:\n%s# frame-check:\n%s", core, chk);
	return found == want && !strcmp(core, chk);
}

static uint8_t stream[NCASES * sizeof(buf)];

/* The table through frame-check: each case, cut short, then all in one. */
static void frame_check(const char *checker)
{
	size_t i, n, pos = 0;
	unsigned int valid = 0;

	for (i = 0; i < NCASES; i++) {
		const struct frame_case *c = &cases[i];

		n = DMD_FRAME_HDR + (size_t)c->len;
		raw_header(c);
		tap_result(agree(checker, buf, n, c->valid) &&
			   (!c->valid || agree(checker, buf, n - 1, 0)),
			   "frame-check: %s: %s as by the core%s", c->what,
			   c->valid ? "accepted" : "refused",
			   c->valid ? "; cut short, counted as cut" : "");
		/* Junk between frames; the last one is cut short. */
		stream[pos++] = 'D';
		memcpy(stream + pos, buf, n);
		pos += i + 1 < NCASES ? n : n - 1;
		valid += c->valid && i + 1 < NCASES;
	}
	tap_result(agree(checker, stream, pos, valid),
		   "frame-check: the whole table in one stream with junk: the "
		   "same %u frames, skipped and cut bytes as the core", valid);
}

/*
 * A header refused for its type, with a genuine frame starting at its
 * fifth byte (a frame cut short by a reset, then the next one): the
 * receiver's loop of parse, then scan from offset 1, must find it there.
 */
static int resync_inside(void)
{
	static const uint8_t head[] = { 'D', 'F', 9, 1, 0 };
	struct dmd_frame f = { DMD_FRAME_RECORD, 2, 0x0a0b0c0d, 42, 7, 3,
			       payload };
	size_t at = 0, n;
	int rc;

	memcpy(buf, head, sizeof(head));
	rc = dmd_frame_write(buf + sizeof(head), sizeof(buf) - sizeof(head),
			     &f);
	if (rc <= 0)
		return 0;
	n = sizeof(head) + (size_t)rc;
	rc = dmd_frame_next(&f, buf, n, &at);
	return rc > 0 && at == sizeof(head) && f.epoch == 42 &&
	       f.index == 7 && f.len == 3 && f.device_id == 0x0a0b0c0d;
}

/* The events of spec 8.1's loop over @in, one line each, into @ev. */
static void receive(const uint8_t *in, size_t n, char *ev, size_t cap)
{
	struct dmd_frame f;
	size_t at = 0, used = 0, i, step;
	int rc;

	ev[0] = 0;
	while (at < n && used < cap) {
		rc = dmd_frame_parse(&f, in + at, n - at);
		if (rc == 0) {
			snprintf(ev + used, cap - used, "cut %zu\n", n - at);
			return;
		}
		if (rc < 0) {
			step = dmd_frame_sync(in + at, n - at);
			used += (size_t)snprintf(ev + used, cap - used,
						 "skip %zu\n", step);
			at += step;
			continue;
		}
		used += (size_t)snprintf(ev + used, cap - used,
					 "frame %u %u %u %llu %u ", f.type,
					 f.suite, (unsigned int)f.device_id,
					 (unsigned long long)f.epoch, f.index);
		for (i = 0; i < f.len && used < cap; i++)
			used += (size_t)snprintf(ev + used, cap - used, "%02x",
						 f.payload[i]);
		used += (size_t)snprintf(ev + used, cap - used, "\n");
		at += (size_t)rc;
	}
}

static char want[40000], have[40000], name[80];
static uint8_t in[20000];
static size_t inlen, wantlen;

static void vector_done(void)
{
	if (!name[0])
		return;
	receive(in, inlen, have, sizeof(have));
	tap_result(!strcmp(want, have), "frames.txt %s", name);
	name[0] = 0;
	want[0] = 0;
	wantlen = 0;
}

/* Each "key = value" line of @path; a "name" line starts a vector. */
static int run_vectors(const char *path)
{
	FILE *f = fopen(path, "r");
	static char line[45000];
	char *v;
	unsigned int x;
	size_t i;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		v = strstr(line, " = ");
		if (line[0] == '#' || !v)
			continue;
		*v = 0;
		v += 3;
		*strchr(line, ' ') = 0;
		if (!strcmp(line, "name")) {
			vector_done();
			snprintf(name, sizeof(name), "%s", v);
		} else if (!strcmp(line, "in")) {
			for (inlen = 0; v[2 * inlen] && inlen < sizeof(in);
			     inlen++) {
				if (sscanf(v + 2 * inlen, "%2x", &x) != 1)
					break;
				in[inlen] = (uint8_t)x;
			}
		} else {
			i = (size_t)snprintf(want + wantlen,
					     sizeof(want) - wantlen, "%s %s\n",
					     line, v);
			wantlen += i;
		}
	}
	vector_done();
	fclose(f);
	return 1;
}

/*
 * dmd_frame_next() at the stream's edges, over @junk ('x','D','D','F','y',
 * 'D'): the 'DF' at 2 may start a frame whose header has not all come, so
 * 2 bytes are skipped and 0 (more needed) returned; the same for a
 * trailing 'D'; a stream of junk only is used up.
 */
static int next_edges(const uint8_t *junk, size_t n)
{
	struct dmd_frame f;
	size_t skipped = 99;

	return dmd_frame_next(&f, junk, n, &skipped) == 0 && skipped == 2 &&
	       dmd_frame_next(&f, junk, 3, &skipped) == 0 && skipped == 2 &&
	       dmd_frame_next(&f, junk + 4, 1, &skipped) == 0 &&
	       skipped == 1 &&
	       dmd_frame_next(&f, NULL, 0, &skipped) == 0 && skipped == 0 &&
	       dmd_frame_next(NULL, junk, n, &skipped) == DMD_EINVAL &&
	       dmd_frame_next(&f, junk, n, NULL) == DMD_EINVAL;
}

int main(int argc, char **argv)
{
	static const uint8_t junk[] = { 'x', 'D', 'D', 'F', 'y', 'D' };
	struct dmd_frame f;
	size_t i;

	for (i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(i * 13 + 1);
	tap_header();
	if (argc == 3 && !strcmp(argv[1], "--frame-check")) {
		frame_check(argv[2]);
		tap_trailing_plan();
		return tap_finish();
	}
	for (i = 0; i < NCASES; i++)
		one(&cases[i]);
	tap_result(dmd_frame_parse(&f, junk, sizeof(junk)) == DMD_EFORMAT &&
		   dmd_frame_sync(junk, sizeof(junk)) == 2 &&
		   dmd_frame_sync(junk + 2, 4) == 3 &&
		   dmd_frame_sync(junk, 1) == 1 &&
		   dmd_frame_parse(&f, junk + 2, 1) == 0,
		   "a wrong sync is refused; the scan finds the next 'DF' "
		   "(or a trailing 'D')");
	tap_result(resync_inside(), "a refused header's scan restarts at its "
		   "second byte: a frame starting inside it is found (spec 8.1)");
	tap_result(next_edges(junk, sizeof(junk)), "dmd_frame_next: junk "
		   "only, a trailing 'D', an empty stream and bad arguments");
	if (argc > 1)
		tap_result(run_vectors(argv[1]), "%s opens", argv[1]);
	tap_trailing_plan();
	return tap_finish();
}
