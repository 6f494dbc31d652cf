// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fw-nv: host helper for the emulated devices' non-volatile memory.
 *
 *   fw-nv image avr|m4 BLOB OUT   write a blank NV image (AVR EEPROM, or the
 *                                 M4's two flash sectors) holding BLOB (v1
 *                                 or v2) as a version 2 slot 0: what a
 *                                 programmer writes at the factory after
 *                                 `diamondctl provision`
 *   fw-nv image-v1 avr|m4 BLOB OUT
 *                                 the same in the layout of firmware before
 *                                 blob version 2 (64-byte slots, v1 blob):
 *                                 a device in the field, for update tests
 *   fw-nv show avr|m4 IMAGE       print each non-blank slot's state
 *   fw-nv testkey SUITE AGG B DEVICE OUT [G]
 *                                 a blob for tests that must run before
 *                                 diamondctl exists: E_0 from a fixed,
 *                                 public test root (never for real keys),
 *                                 with group size G (1..B; default and 0:
 *                                 G = B, no group tags; spec section 5.1)
 *
 * A blob's group size goes into the image as it is: the firmware sends
 * the group tags the blob asks for (diamondctl provision --group-size).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/core.h>
#include "board.h"
#include "nvstate.h"

/* nvstate.c's board hooks: the host tool only builds slot images. */
int board_nv_read(uint32_t off, uint8_t *p, uint32_t n) { (void)off; (void)p; (void)n; return -1; }
int board_nv_program(uint32_t off, const uint8_t *p, uint32_t n) { (void)off; (void)p; (void)n; return -1; }
int board_nv_erase_sector(uint32_t sector) { (void)sector; return -1; }
uint32_t board_nv_slots(void) { return 0; }
uint32_t board_nv_sector_slots(void) { return 1; }

#define AVR_NV_BYTES	4096
#define M4_NV_BYTES	32768

static size_t nv_bytes(const char *t)
{
	if (!strcmp(t, "avr"))
		return AVR_NV_BYTES;
	if (!strcmp(t, "m4"))
		return M4_NV_BYTES;
	fprintf(stderr, "fw-nv: target must be avr or m4\n");
	exit(2);
}

static size_t read_file(const char *path, uint8_t *buf, size_t max)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		perror(path);
		exit(1);
	}
	n = fread(buf, 1, max, f);
	fclose(f);
	return n;
}

static void write_file(const char *path, const uint8_t *buf, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	static uint8_t img[M4_NV_BYTES];
	uint8_t blob[DMD_BLOB2_MAX + 1];
	struct dmd_state st;
	size_t n, i;

	if (argc == 5 && (!strcmp(argv[1], "image") ||
			  !strcmp(argv[1], "image-v1"))) {
		n = read_file(argv[3], blob, sizeof(blob));
		if (dmd_blob_parse(&st, blob, n)) {
			fprintf(stderr, "fw-nv: %s is not a key blob, or it is "
				"damaged\n", argv[3]);
			return 1;
		}
		/* The device would refuse it at its first seal. */
		if (st.flags & DMD_BLOB_FLAG_OPEN_ONLY) {
			fprintf(stderr, "fw-nv: %s is open-only (a gateway's "
				"key): a device cannot seal with it\n",
				argv[3]);
			return 1;
		}
		memset(img, 0xff, sizeof(img));
		if (!strcmp(argv[1], "image"))
			nv_slot_image(img, &st);
		else
			nv_v1_slot_image(img, &st);
		write_file(argv[4], img, nv_bytes(argv[2]));
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "show")) {
		size_t sz = nv_bytes(argv[2]);

		n = read_file(argv[3], img, sz);
		for (i = 0; i + NV_SLOT_SIZE <= n; i += NV_SLOT_SIZE) {
			size_t z = 0, f = 0, j;

			for (j = 0; j < NV_SLOT_SIZE; j++) {
				z += img[i + j] == 0;
				f += img[i + j] == 0xff;
			}
			if (f == NV_SLOT_SIZE)
				continue;
			if (z == NV_SLOT_SIZE) {
				printf("slot %zu: zeroed\n", i / NV_SLOT_SIZE);
				continue;
			}
			if (img[i + NV_COMMIT_OFF] == NV_COMMIT &&
			    img[i + DMD_BLOB_OFF_VERSION] == DMD_BLOB2_VERSION &&
			    !dmd_blob_parse(&st, img + i,
					    dmd_blob2_size(img[i + 5])))
				printf("slot %zu: live, suite %u device %u epoch %llu group %u\n",
				       i / NV_SLOT_SIZE, st.suite, st.device_id,
				       (unsigned long long)st.epoch,
				       st.group ? st.group : st.b);
			else
				printf("slot %zu: partial\n", i / NV_SLOT_SIZE);
		}
		return 0;
	}
	if ((argc == 7 || argc == 8) && !strcmp(argv[1], "testkey")) {
		static const uint8_t root[DMD_ROOT_SIZE] = "embedded test root, public";

		memset(&st, 0, sizeof(st));
		st.suite = (uint8_t)atoi(argv[2]);
		st.agg = (uint8_t)atoi(argv[3]);
		st.b = (uint32_t)strtoul(argv[4], NULL, 0);
		st.device_id = (uint32_t)strtoul(argv[5], NULL, 0);
		st.group = (uint16_t)(argc == 8 ? strtoul(argv[7], NULL, 0) : 0);
		if ((argc == 8 && strtoul(argv[7], NULL, 0) > 65535) ||
		    dmd_derive_initial(&st, root)) {
			fprintf(stderr, "fw-nv: bad parameters\n");
			return 1;
		}
		dmd_blob2_write(blob, &st);
		write_file(argv[6], blob, dmd_blob2_size(st.suite));
		return 0;
	}
	fprintf(stderr, "usage: fw-nv image|image-v1 avr|m4 BLOB OUT | show avr|m4 IMAGE |\n"
			"       testkey SUITE AGG B DEVICE OUT [G]\n");
	return 2;
}
