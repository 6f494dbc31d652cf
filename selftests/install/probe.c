// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * probe ROOT_HEX "SUITE AGG B DEVICE GENERATION" BLOB_HEX: a program built
 * the way a user of an installed libdiamond builds one, with nothing but
 * `pkg-config --cflags --libs libdiamond`. It derives a device blob from
 * a root secret and checks it against a known answer (vectors/blob.txt),
 * reads the parameters back, and sends a record frame through the writer
 * and the parser. Prints one line; exit 0 only if every check holds.
 */
#include <diamond/libdiamond.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int unhex(const char *s, uint8_t *out, size_t cap, size_t *len)
{
	size_t n = strlen(s);

	if (n % 2 || n / 2 > cap)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned int v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (uint8_t)v;
	}
	*len = n / 2;
	return 0;
}

static int fail(const char *what)
{
	printf("probe: %s\n", what);
	return 1;
}

/* A record frame of device p->device_id survives write and parse. */
static int frame_round_trip(const struct diamond_params *p)
{
	static const uint8_t ct[] = "installed";
	uint8_t buf[DIAMOND_FRAME_HDR + sizeof(ct)];
	struct diamond_frame in = {
		.type = DIAMOND_FRAME_RECORD, .suite = (uint8_t)p->suite,
		.device_id = p->device_id, .epoch = p->epoch, .index = 3,
		.len = sizeof(ct), .payload = ct,
	}, out;
	int n = diamond_frame_write(buf, sizeof(buf), &in);

	if (n != (int)sizeof(buf) || diamond_frame_parse(&out, buf, sizeof(buf)) != n)
		return -1;
	if (out.device_id != in.device_id || out.epoch != in.epoch ||
	    out.index != in.index || out.len != in.len ||
	    memcmp(out.payload, ct, sizeof(ct)))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	uint8_t root[DIAMOND_ROOT_SIZE], want[DIAMOND_BLOB_MAX], got[DIAMOND_BLOB_MAX];
	size_t rootlen, wantlen, gotlen;
	struct diamond_params p = { 0 }, back;
	uint64_t epoch0;

	if (argc != 4 || unhex(argv[1], root, sizeof(root), &rootlen) ||
	    rootlen != sizeof(root) || unhex(argv[3], want, sizeof(want), &wantlen) ||
	    sscanf(argv[2], "%u %u %" SCNu32 " %" SCNu32 " %u", &p.suite, &p.agg,
		   &p.b, &p.device_id, &p.generation) != 5)
		return fail("usage: probe ROOT_HEX \"SUITE AGG B DEVICE GEN\" BLOB_HEX");
	if (diamond_provision(root, &p, got, &gotlen))
		return fail("diamond_provision failed");
	if (gotlen != wantlen || memcmp(got, want, wantlen))
		return fail("provisioned blob differs from the known answer");
	if (diamond_blob_info(got, gotlen, &back))
		return fail("diamond_blob_info refused the blob");
	epoch0 = (uint64_t)p.generation << 32;
	if (back.suite != p.suite || back.agg != p.agg || back.b != p.b ||
	    back.device_id != p.device_id || back.generation != p.generation ||
	    back.epoch != epoch0)
		return fail("diamond_blob_info read other parameters");
	if (frame_round_trip(&back))
		return fail("frame write/parse round trip failed");
	if (!diamond_strerror(DIAMOND_ENODEVICE) || !*diamond_strerror(DIAMOND_ENODEVICE))
		return fail("diamond_strerror has no message");
	printf("probe: device %" PRIu32 " suite %u generation %u: known answer, parameters, frame\n",
	       p.device_id, p.suite, p.generation);
	return 0;
}
