// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libdiamond units for issue 10's sender-side hardening: error words that
 * do not lie, the exclusive sender lock, the one epoch body limit, and the
 * forward-only state import; issue 23's fresh value N in provisioning; and
 * issue 20's open-only keys, which the host sender refuses; issue 31's
 * kernel tfm cap and how it fits the descriptor limit.
 * Usage: test_hardening SCRATCH_DIR
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <diamond/core.h>
#include <diamond/libdiamond.h>

#include "tap.h"
#include "../../userspace/lib/internal.h"

static char dir[512];

static void errors(void)
{
	tap_result(!strstr(diamond_strerror(-ENOSPC), "exhausted"),
		   "ENOSPC (disk full) reads as '%s'", diamond_strerror(-ENOSPC));
	tap_result(!strstr(diamond_strerror(-ENOENT), "device"),
		   "ENOENT (missing path) reads as '%s'", diamond_strerror(-ENOENT));
	tap_result(strstr(diamond_strerror(-DIAMOND_EEXHAUSTED), "exhausted") &&
		   strstr(diamond_strerror(-DIAMOND_ENODEVICE), "unknown device") &&
		   strstr(diamond_strerror(-DIAMOND_EOLDGEN), "older provisioning generation"),
		   "libdiamond's own codes have their own words");
	tap_result(DIAMOND_EEXHAUSTED > 4095 && DIAMOND_ECHAIN > 4095,
		   "own codes lie above every errno");
}

static void provision(uint32_t id, unsigned int gen, uint32_t b, char root_byte,
		      uint8_t *blob, size_t *len)
{
	struct diamond_params p = { .suite = 2, .agg = 0, .b = b,
				    .device_id = id, .generation = gen };
	uint8_t root[DIAMOND_ROOT_SIZE];

	memset(root, root_byte, sizeof(root));
	diamond_provision(root, &p, blob, len);
}

static int put(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(p, 1, n, f) == n;

	return f && !fclose(f) && ok ? 0 : -1;
}

static void sender(void)
{
	struct diamond_sender *a = NULL, *b = NULL;
	static uint8_t frame[DIAMOND_FRAME_MAX], rec[DIAMOND_MAX_RECORD];
	uint8_t blob[DIAMOND_BLOB_MAX];
	char path[600];
	size_t len, body = DIAMOND_TAG_SIZE;
	int full = 0, n = 0, rc;

	snprintf(path, sizeof(path), "%s/s.bin", dir);
	provision(1, 0, 1024, 'r', blob, &len);
	put(path, blob, len);
	tap_result(diamond_sender_open(&a, path) == 0 &&
		   diamond_sender_open(&b, path) == -EBUSY,
		   "sender: a second sender on one blob -> EBUSY");
	diamond_sender_free(b);
	memset(rec, 'x', sizeof(rec));
	while (a && !full && n < 1024) {
		rc = diamond_sender_seal(a, rec, sizeof(rec), frame, &full);
		if (rc < 0)
			break;
		body += 2 + sizeof(rec);
		n++;
	}
	tap_result(full && n == 255 && body <= DIAMOND_MAX_BODY &&
		   body + 2 + sizeof(rec) > DIAMOND_MAX_BODY,
		   "sender: b = 1024 x 4096 B closes at %d records, body %zu <= %d",
		   n, body, DIAMOND_MAX_BODY);
	diamond_sender_free(a);
	tap_result(diamond_sender_open(&b, path) == 0,
		   "sender: the lock goes with the sender");
	diamond_sender_free(b);
}

/*
 * Issue 20 item 1: an open-only blob (spec section 2, a gateway's key) is
 * refused by the host sender with -EPERM before anything is sealed: the
 * file is unchanged and no lock is left behind.
 */
static void open_only(void)
{
	struct diamond_sender *s = NULL;
	struct dmd_state st;
	uint8_t blob[DIAMOND_BLOB_MAX], ro[DIAMOND_BLOB_MAX], back[64];
	char path[600];
	size_t len;
	FILE *f;
	int rc, same;

	snprintf(path, sizeof(path), "%s/ro.bin", dir);
	provision(3, 0, 16, 'o', blob, &len);
	dmd_blob_parse(&st, blob, len);
	st.flags = DMD_BLOB_FLAG_OPEN_ONLY;
	dmd_blob2_write(ro, &st);
	put(path, ro, len);
	rc = diamond_sender_open(&s, path);
	f = fopen(path, "rb");
	same = f && fread(back, 1, sizeof(back), f) == len &&
	       !memcmp(back, ro, len);
	if (f)
		fclose(f);
	tap_result(rc == -EPERM && !s && same,
		   "sender: open-only blob -> EPERM (got %d), file unchanged",
		   rc);
	tap_result(strstr(diamond_strerror(-EPERM), "open-only") != NULL,
		   "EPERM reads as '%s'", diamond_strerror(-EPERM));
	put(path, blob, len);
	tap_result(diamond_sender_open(&s, path) == 0,
		   "sender: the same state without the flag seals (no lock left)");
	diamond_sender_free(s);
}

/*
 * The gateway's side of it: every key the kernel backend gives the module
 * is open-only, the version 1 blob and a grouped device's version 2 blob
 * alike, and is otherwise the state file's blob.
 */
static void gateway_keys(void)
{
	struct dlib_dev d;
	struct dmd_receiver rx;
	struct dmd_state st;
	uint8_t blob[DIAMOND_BLOB_MAX], key[DLIB_KERNEL_KEY_MAX];
	size_t len, n;

	memset(&d, 0, sizeof(d));
	provision(4, 0, 16, 'g', blob, &len);
	dmd_blob_parse(&d.st, blob, len);
	d.g = d.st.b;
	n = dlib_kernel_key(&d, NULL, key);
	tap_result(n == dmd_blob_size(d.st.suite) &&
		   dmd_blob_parse(&st, key, n) == DMD_OK &&
		   st.flags == DMD_BLOB_FLAG_OPEN_ONLY &&
		   st.epoch == d.st.epoch &&
		   !memcmp(st.key, d.st.key, sizeof(st.key)),
		   "gateway: the module's version 1 key is the state, open-only");
	d.g = 4;
	dmd_receiver_init(&rx, &d.st, d.g, 0);
	n = dlib_kernel_key(&d, &rx, key);
	tap_result(n == dmd_blob2_size(d.st.suite) &&
		   dmd_blob_parse(&st, key, n) == DMD_OK &&
		   st.flags == DMD_BLOB_FLAG_OPEN_ONLY && st.group == 4,
		   "gateway: a grouped device's version 2 key is open-only");
	dmd_receiver_wipe(&rx);
	dmd_wipe(&d.st, sizeof(d.st));
	dmd_wipe(&st, sizeof(st));
}

/* The store's state of device @id as parameters. */
static int state_of(struct diamond_store *s, uint32_t id,
		    struct diamond_params *p)
{
	uint8_t blob[DIAMOND_BLOB_MAX];
	size_t len;

	return diamond_store_load(s, id, blob, &len) ||
	       diamond_blob_info(blob, len, p);
}

static void import(void)
{
	struct diamond_store *s;
	struct diamond_params p;
	struct dmd_state st;
	uint8_t g0[DIAMOND_BLOB_MAX], later[DIAMOND_BLOB_MAX];
	uint8_t g1[DIAMOND_BLOB_MAX], other[DIAMOND_BLOB_MAX], r0[DMD_KEY_MAX];
	size_t len, l1, lo;
	char sdir[600];

	snprintf(sdir, sizeof(sdir), "%s/st", dir);
	if (diamond_store_open(&s, sdir, DIAMOND_STORE_CREATE |
			       DIAMOND_STORE_LOCK)) {
		tap_result(0, "import: store opens");
		return;
	}
	provision(7, 0, 4, 'r', g0, &len);
	/* The same chain three epochs on, as a gateway would have saved it. */
	dmd_blob_parse(&st, g0, len);
	for (int i = 0; i < 3; i++) {
		dmd_epoch_update(st.suite, st.key, st.key, r0);
		st.epoch++;
	}
	dmd_blob2_write(later, &st);
	provision(7, 1, 4, 'r', g1, &l1);
	provision(7, 0, 4, 'o', other, &lo);

	tap_result(diamond_store_import(s, g0, len, 0) == 0 &&
		   !state_of(s, 7, &p) && p.epoch == 0,
		   "import: a device new to the store is taken");
	tap_result(diamond_store_import(s, g0, len, 0) == 0,
		   "import: the equal state again is a no-op");
	tap_result(diamond_store_import(s, later, len, 0) == 0 &&
		   !state_of(s, 7, &p) && p.epoch == 3,
		   "import: a later epoch of the same chain moves it forward");
	tap_result(diamond_store_import(s, g0, len, 0) == -DIAMOND_EBACKWARD &&
		   !state_of(s, 7, &p) && p.epoch == 3,
		   "import: an older state -> DIAMOND_EBACKWARD, state kept");
	tap_result(diamond_store_import(s, other, lo, 5) == -DIAMOND_ECHAIN,
		   "import: a later state of another chain -> DIAMOND_ECHAIN");
	tap_result(diamond_store_import(s, g1, l1, 0) == 0 &&
		   !state_of(s, 7, &p) && p.generation == 1 &&
		   p.epoch == (uint64_t)1 << 32,
		   "import: a newer generation replaces the state");
	tap_result(diamond_store_import(s, later, len, 0) == -DIAMOND_EOLDGEN,
		   "import: an older generation -> DIAMOND_EOLDGEN");
	tap_result(diamond_store_import(s, g1, l1, 2) == 0 &&
		   !state_of(s, 7, &p) && p.epoch == ((uint64_t)1 << 32) + 2,
		   "import: --advance 2 moves two epochs further");
	g1[40] ^= 1;
	tap_result(diamond_store_import(s, g1, l1, 0) == -EINVAL,
		   "import: a damaged blob -> EINVAL");
	diamond_store_close(s);
	memset(&st, 0, sizeof(st));
}

/*
 * diamond_provision_fresh() (spec section 2): N decides the key, the
 * clear fields stay those of the parameters, g = b is hashed as stored (0),
 * and no blob equals the earlier derivation's.
 */
static void fresh(void)
{
	struct diamond_params p = { .suite = 1, .agg = 0, .b = 16,
				    .device_id = 7, .generation = 3 };
	uint8_t root[DIAMOND_ROOT_SIZE], n1[DIAMOND_PROV_NONCE_SIZE];
	uint8_t n2[DIAMOND_PROV_NONCE_SIZE], a[DIAMOND_BLOB_MAX];
	uint8_t b[DIAMOND_BLOB_MAX], c[DIAMOND_BLOB_MAX];
	size_t la = 0, lb = 0, lc = 0;

	memset(root, 'r', sizeof(root));
	memset(n1, 1, sizeof(n1));
	memcpy(n2, n1, sizeof(n2));
	n2[15] ^= 0x80;
	tap_result(diamond_provision_fresh(root, NULL, &p, a, &la) == -EINVAL,
		   "provision_fresh: no N -> EINVAL");
	tap_result(diamond_provision_fresh(root, n1, &p, a, &la) == 0 &&
		   diamond_provision_fresh(root, n1, &p, b, &lb) == 0 &&
		   la == 48 && lb == la && !memcmp(a, b, la),
		   "provision_fresh: one (R, N, parameters) gives one blob");
	diamond_provision_fresh(root, n2, &p, b, &lb);
	tap_result(lb == la && !memcmp(a, b, 28) && memcmp(a + 28, b + 28, 16),
		   "provision_fresh: one bit of N -> same clear fields, another key");
	diamond_provision(root, &p, c, &lc);
	tap_result(lc == la && !memcmp(a, c, 28) && memcmp(a + 28, c + 28, 16),
		   "provision_fresh: not the earlier derivation's key");
	p.group_size = 16;
	diamond_provision_fresh(root, n1, &p, c, &lc);
	tap_result(lc == la && !memcmp(a, c, la),
		   "provision_fresh: g = b is hashed as stored, 0");
	p.group_size = 4;
	diamond_provision_fresh(root, n1, &p, c, &lc);
	tap_result(c[26] == 4 && memcmp(a + 28, c + 28, 16),
		   "provision_fresh: group size 4 is bound into the key");
	p.group_size = 17;
	tap_result(diamond_provision_fresh(root, n1, &p, c, &lc) == -EINVAL,
		   "provision_fresh: group size above b -> EINVAL");
}

/*
 * The kernel tfm cap (issue 31): the default keeps 10,000 devices keyed in
 * under 1 GiB of kernel memory, and dlib_fit_tfms() fits it to the
 * descriptor limit (four per tfm, 32 kept). Last: it lowers this
 * process's limits for good.
 */
static void tfm_cap(void)
{
	struct rlimit big = { 4 * DIAMOND_DEFAULT_MAX_TFMS + 32,
			      4 * DIAMOND_DEFAULT_MAX_TFMS + 32 };
	struct rlimit small = { 4096, 4096 }, soft = { 1024, 4096 }, now;
	unsigned int got;

	tap_result(DIAMOND_DEFAULT_MAX_TFMS >= 10000 &&
		   (uint64_t)DIAMOND_DEFAULT_MAX_TFMS *
		   DIAMOND_TFM_KERNEL_BYTES < (1ull << 30),
		   "tfm cap: the default, %u (at least 10,000), costs at most %llu MiB of kernel memory (under 1 GiB)",
		   DIAMOND_DEFAULT_MAX_TFMS,
		   (unsigned long long)DIAMOND_DEFAULT_MAX_TFMS *
		   DIAMOND_TFM_KERNEL_BYTES >> 20);
	if (setrlimit(RLIMIT_NOFILE, &big))
		tap_skip("cannot raise RLIMIT_NOFILE to 65,568 (CAP_SYS_RESOURCE, nr_open)",
			 "tfm cap: the default fits 65,568 descriptors whole");
	else
		tap_result(dlib_fit_tfms(DIAMOND_DEFAULT_MAX_TFMS) ==
			   DIAMOND_DEFAULT_MAX_TFMS,
			   "tfm cap: the default fits %llu descriptors whole",
			   (unsigned long long)big.rlim_max);
	got = setrlimit(RLIMIT_NOFILE, &small) ? 0 :
	      dlib_fit_tfms(DIAMOND_DEFAULT_MAX_TFMS);
	tap_result(got == (4096 - 32) / 4,
		   "tfm cap: a hard limit of 4096 descriptors lowers it to %u",
		   got);
	got = setrlimit(RLIMIT_NOFILE, &soft) ? 0 :
	      dlib_fit_tfms(DIAMOND_DEFAULT_MAX_TFMS);
	getrlimit(RLIMIT_NOFILE, &now);
	tap_result(got == (4096 - 32) / 4 && now.rlim_cur == 4096,
		   "tfm cap: a soft limit of 1024 is raised to the hard 4096 first (%u, %llu)",
		   got, (unsigned long long)now.rlim_cur);
	tap_result(dlib_fit_tfms(100) == 100,
		   "tfm cap: a cap below the limit stays as asked");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_hardening SCRATCH_DIR\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s", argv[1]);
	mkdir(dir, 0700);
	tap_header();
	errors();
	sender();
	open_only();
	gateway_keys();
	import();
	fresh();
	tfm_cap();
	tap_trailing_plan();
	return tap_finish();
}
