// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The fuzz targets' seed corpus, written at build time (nothing binary is
 * committed): seed OUT makes OUT/{gw,blob,state,spool} and OUT/regress,
 * the inputs of findings that were fixed, which check-fuzz replays.
 * Streams are sealed for the fixture's devices (fixture.h), so each seed
 * verifies and the fuzzer starts from the gateway's deep paths.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <diamond/core.h>

#include "fixture.h"

static const char *out;
static uint8_t buf[1 << 16], tmp[1 << 16];

static void save(const char *sub, const char *name, const uint8_t *hdr,
		 size_t hlen, const uint8_t *p, size_t len)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", out, sub);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/%s", out, sub, name);
	if (hlen)
		memcpy(tmp, hdr, hlen);
	memcpy(tmp + hlen, p, len);
	if (fx_write(path, tmp, hlen + len)) {
		perror(path);
		exit(1);
	}
}

/* @p as datagrams, one frame each: (le16 length, frame)... */
static size_t datagrams(const uint8_t *p, size_t len, uint8_t *d)
{
	struct diamond_frame f;
	size_t pos = 0, o = 0;
	int n;

	while (pos < len && (n = diamond_frame_parse(&f, p + pos, len - pos)) > 0) {
		d[o] = (uint8_t)n;
		d[o + 1] = (uint8_t)(n >> 8);
		memcpy(d + o + 2, p + pos, (size_t)n);
		o += 2 + (size_t)n;
		pos += (size_t)n;
	}
	return o;
}

/*
 * Device 3 (b = 600, g = 1): its first record and group tag moved to
 * groups 599, 513, 300 and 5 (forged units past each checkpoint), then
 * two genuine epochs. Returns the length written to @out.
 */
static size_t forged(uint8_t *out, size_t cap)
{
	static const uint16_t at[] = { 599, 513, 300, 5 };
	struct diamond_frame r, t;
	size_t n = fx_seal(3, 2, 5, 0, buf, sizeof(buf)), o = 0, i;
	int rl = diamond_frame_parse(&r, buf, n), tl;

	tl = rl > 0 ? diamond_frame_parse(&t, buf + rl, n - (size_t)rl) : -1;
	if (tl < 0 || t.type != DIAMOND_FRAME_GROUP)
		exit(1);
	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		r.index = t.index = at[i];
		o += (size_t)diamond_frame_write(out + o, cap - o, &r);
		o += (size_t)diamond_frame_write(out + o, cap - o, &t);
	}
	memcpy(out + o, buf, n);
	return o + n;
}

static void gw_seeds(void)
{
	static uint8_t all[1 << 15], dg[1 << 16];
	const uint8_t finish[2] = { 4, 61 }, restart[2] = { 6, 128 },
		      cut[2] = { 2, 100 }, dgram[2] = { 5, 0 },
		      dgram_restart[2] = { 7, 77 };
	size_t n, alen = 0;
	uint32_t id;
	char name[32];

	for (id = 1; id <= FX_DEVICES; id++) {
		n = fx_seal(id, 3, id == 3 ? 5 : 8, 2 * id, buf, sizeof(buf));
		snprintf(name, sizeof(name), "stream-%u", (unsigned int)id);
		save("gw", name, finish, 2, buf, n);
		snprintf(name, sizeof(name), "restart-%u", (unsigned int)id);
		save("gw", name, restart, 2, buf, n);
		snprintf(name, sizeof(name), "datagrams-%u", (unsigned int)id);
		save("gw", name, dgram, 2, dg, datagrams(buf, n, dg));
		memcpy(all + alen, buf, n);
		alen += n;
	}
	save("gw", "forged-3", finish, 2, dg, forged(dg, sizeof(dg)));
	save("gw", "all", finish, 2, all, alen);
	save("gw", "all-cut", cut, 2, all, alen);
	save("gw", "all-datagrams-restart", dgram_restart, 2, dg,
	     datagrams(all, alen, dg));
}

/*
 * Fixed findings, replayed by check-fuzz. empty-record: device 1 sends an
 * empty record 0 and a tag frame for n = 1; the assembler held no bytes
 * yet and computed NULL + 0 (issue 23, item 8).
 */
static void regress(void)
{
	const uint8_t finish[2] = { 4, 60 };
	uint8_t tag[DIAMOND_TAG_SIZE] = { 0 };
	struct diamond_frame r = {
		.type = DIAMOND_FRAME_RECORD, .suite = 1, .device_id = 1,
		.payload = tag,
	}, t = {
		.type = DIAMOND_FRAME_TAG, .suite = 1, .device_id = 1,
		.index = 1, .len = DIAMOND_TAG_SIZE, .payload = tag,
	};
	int a = diamond_frame_write(buf, sizeof(buf), &r), b;

	b = diamond_frame_write(buf + a, sizeof(buf) - (size_t)a, &t);
	if (a < 0 || b < 0)
		exit(1);
	save("regress", "empty-record", finish, 2, buf, (size_t)(a + b));
}

static void blob_seeds(void)
{
	struct dmd_state st;
	uint32_t id;
	size_t n;
	char name[32];

	for (id = 1; id <= FX_DEVICES; id++) {
		n = fx_blob(id, buf);
		snprintf(name, sizeof(name), "v2-%u", (unsigned int)id);
		save("blob", name, NULL, 0, buf, n);
		if (dmd_blob_parse(&st, buf, n))
			exit(1);
		dmd_blob_write(buf, &st);
		snprintf(name, sizeof(name), "v1-%u", (unsigned int)id);
		save("blob", name, NULL, 0, buf, dmd_blob_size(st.suite));
	}
}

static size_t slurp(const char *path, uint8_t *p, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(p, 1, cap, f) : 0;

	if (f)
		fclose(f);
	return n;
}

/* Device @id's state file as it is now, as seed "<prefix>-<id>". */
static void save_state(uint32_t id, const char *prefix)
{
	uint8_t id8 = (uint8_t)(id - 1);	/* fuzz_state: 1 + byte % 3 */
	char path[4200], name[32];
	size_t n;

	snprintf(path, sizeof(path), "%s/%u.state", fx_dir(), (unsigned int)id);
	n = slurp(path, buf, sizeof(buf));
	snprintf(name, sizeof(name), "%s-%u", prefix, (unsigned int)id);
	save("state", name, &id8, 1, buf, n);
}

/*
 * State files and spools as a gateway leaves them: each device part-way
 * into its second epoch (device 2 and 3 with a cursor), cut off.
 */
static void file_seeds(void)
{
	struct diamond_gw_opts o = {
		.backend = DIAMOND_BACKEND_SOFTWARE, .state_dir = fx_dir(),
		.flags = DIAMOND_GW_SPOOL,
	};
	struct diamond_gw *gw;
	char path[4200];
	uint32_t id;
	size_t n;

	if (fx_reset(fx_dir()) || diamond_gw_new(&gw, &o, NULL, NULL, 0))
		exit(1);
	for (id = 1; id <= FX_DEVICES; id++) {
		save_state(id, "fresh");
		n = fx_seal(id, 2, 8, 1, buf, sizeof(buf));
		diamond_gw_feed(gw, buf, n * 3 / 4);
	}
	diamond_gw_free(gw);	/* no finish: the spool keeps the rest */
	for (id = 1; id <= FX_DEVICES; id++)
		save_state(id, "cut");
	snprintf(path, sizeof(path), "%s/spool/frames", fx_dir());
	n = slurp(path, buf, sizeof(buf));
	save("spool", "cut", NULL, 0, buf, n);
	fx_reset(fx_dir());
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: seed OUTDIR\n");
		return 2;
	}
	out = argv[1];
	mkdir(out, 0755);
	gw_seeds();
	regress();
	blob_seeds();
	file_seeds();
	return 0;
}
