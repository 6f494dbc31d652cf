// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * afalg_smoke: raw AF_ALG smoke test for the run-vm guest.
 *  - gcm(aes) encrypt of the GCM spec test case 2 (key 0, IV 0, 16 zero
 *    bytes of plaintext), decrypt back, and a forged tag gives EBADMSG;
 *  - ctr(aes), ghash, chacha20, poly1305 bind through AF_ALG, and the
 *    driver the crypto API picks for each (highest priority in /proc/crypto)
 *    is reported; with the CPU's AES and carry-less multiply in the guest
 *    CPU the accelerated drivers must be present: on x86 (/proc/cpuinfo
 *    "flags" aes, pclmulqdq) ctr-aes-aesni and ghash-clmulni, on arm64
 *    ("Features" aes, pmull: the Crypto Extensions) ctr-aes-ce and
 *    gcm-aes-ce (arm64 has no stand-alone PMULL ghash driver).
 * TAP 13 on stdout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/if_alg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "tap.h"

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

static const uint8_t tc2_ct[16] = {
	0x03, 0x88, 0xda, 0xce, 0x60, 0xb6, 0xa3, 0x92,
	0xf3, 0x28, 0xc2, 0xb9, 0x71, 0xb2, 0xfe, 0x78,
};
static const uint8_t tc2_tag[16] = {
	0xab, 0x6e, 0x47, 0xd4, 0x2c, 0xec, 0x13, 0xbd,
	0xf5, 0x3a, 0x67, 0xb2, 0x12, 0x57, 0xbd, 0xdf,
};

static int alg_bind(const char *type, const char *name)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int fd = socket(AF_ALG, SOCK_SEQPACKET, 0);

	if (fd < 0)
		return -errno;
	snprintf((char *)sa.salg_type, sizeof(sa.salg_type), "%s", type);
	snprintf((char *)sa.salg_name, sizeof(sa.salg_name), "%s", name);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	return fd;
}

/* One AEAD operation, no AAD, 12-byte IV; returns bytes read or -errno. */
static ssize_t aead_op(int tfm, int op, const uint8_t *iv, const uint8_t *in,
		       size_t inlen, uint8_t *out, size_t outlen)
{
	char cbuf[CMSG_SPACE(sizeof(uint32_t)) +
		  CMSG_SPACE(sizeof(struct af_alg_iv) + 12) +
		  CMSG_SPACE(sizeof(uint32_t))] = { 0 };
	struct iovec iov = { .iov_base = (void *)in, .iov_len = inlen };
	struct msghdr msg = {
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	struct cmsghdr *c;
	struct af_alg_iv *aiv;
	ssize_t n;
	int fd = accept(tfm, NULL, 0);

	if (fd < 0)
		return -errno;
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	memcpy(CMSG_DATA(c), &(uint32_t){ (uint32_t)op }, sizeof(uint32_t));

	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_IV;
	c->cmsg_len = CMSG_LEN(sizeof(*aiv) + 12);
	aiv = (struct af_alg_iv *)CMSG_DATA(c);
	aiv->ivlen = 12;
	memcpy(aiv->iv, iv, 12);

	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	memcpy(CMSG_DATA(c), &(uint32_t){ 0 }, sizeof(uint32_t));

	if (sendmsg(fd, &msg, 0) != (ssize_t)inlen) {
		n = -errno;
		close(fd);
		return n;
	}
	n = read(fd, out, outlen);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

static void hex(char *dst, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(dst + 2 * i, "%02x", p[i]);
}

/* Driver with the highest priority for cra_name `name`, as the API picks. */
static int best_driver(const char *name, char *drv, size_t len, int *prio)
{
	char line[256], cur_name[128] = "", cur_drv[128] = "";
	int cur_prio = -1, found = 0;
	FILE *f = fopen("/proc/crypto", "r");

	if (!f)
		return 0;
	*prio = -1;
	while (fgets(line, sizeof(line), f)) {
		char v[128];

		if (sscanf(line, "name : %127s", v) == 1) {
			snprintf(cur_name, sizeof(cur_name), "%s", v);
		} else if (sscanf(line, "driver : %127s", v) == 1) {
			snprintf(cur_drv, sizeof(cur_drv), "%s", v);
		} else if (sscanf(line, "priority : %d", &cur_prio) == 1) {
			if (!strcmp(cur_name, name) && cur_prio > *prio) {
				*prio = cur_prio;
				snprintf(drv, len, "%s", cur_drv);
				found = 1;
			}
		}
	}
	fclose(f);
	return found;
}

static int driver_listed(const char *driver)
{
	char line[256], v[128];
	FILE *f = fopen("/proc/crypto", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "driver : %127s", v) == 1 && !strcmp(v, driver);
	fclose(f);
	return found;
}

/*
 * The CPU feature line of /proc/cpuinfo, and the drivers each feature
 * brings: AES, then carry-less multiply (GHASH).
 */
#if defined(__aarch64__)
#define CPU_FEATURES	"Features"
static const char *const accel[2][2] = {
	{ "aes", "ctr-aes-ce" }, { "pmull", "gcm-aes-ce" },
};
#else
#define CPU_FEATURES	"flags"
static const char *const accel[2][2] = {
	{ "aes", "ctr-aes-aesni" }, { "pclmulqdq", "ghash-clmulni" },
};
#endif

static int cpu_has(const char *flag)
{
	char line[4096];
	FILE *f = fopen("/proc/cpuinfo", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p;

		if (strncmp(line, CPU_FEATURES, strlen(CPU_FEATURES)) ||
		    !strchr(line, ':'))
			continue;
		for (p = strtok(strchr(line, ':') + 1, " \n"); p; p = strtok(NULL, " \n"))
			if (!strcmp(p, flag))
				found = 1;
	}
	fclose(f);
	return found;
}

/* The running kernel's release as major * 100 + minor. */
static int kernel_release(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return 0;
	return major * 100 + minor;
}

int main(void)
{
	/* gone: the release upstream removed it in (major * 100 + minor). */
	static const struct { const char *type, *name; int gone; } others[] = {
		{ "skcipher", "ctr(aes)", 0 }, { "hash", "ghash", 701 },
		{ "skcipher", "chacha20", 0 }, { "hash", "poly1305", 616 },
	};
	uint8_t key[16] = { 0 }, iv[12] = { 0 }, pt[16] = { 0 };
	uint8_t out[32], back[16], forged[32];
	char h[65];
	ssize_t n;
	int tfm, ok;

	tap_plan(11);

	tfm = alg_bind("aead", "gcm(aes)");
	if (!tap_result(tfm >= 0, "bind aead gcm(aes)")) {
		tap_diag("bind: %s", strerror(-tfm));
		return tap_finish();
	}
	ok = setsockopt(tfm, SOL_ALG, ALG_SET_KEY, key, sizeof(key)) == 0 &&
	     setsockopt(tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, 16) == 0;
	tap_result(ok, "set 128-bit key and 16-byte tag");

	n = aead_op(tfm, ALG_OP_ENCRYPT, iv, pt, sizeof(pt), out, sizeof(out));
	ok = n == 32 && !memcmp(out, tc2_ct, 16) && !memcmp(out + 16, tc2_tag, 16);
	if (!tap_result(ok, "gcm(aes) encrypt matches GCM test case 2")) {
		tap_diag("read %zd", n);
		if (n == 32) {
			hex(h, out, 32);
			tap_diag("got %s", h);
		}
	}

	n = aead_op(tfm, ALG_OP_DECRYPT, iv, out, 32, back, sizeof(back));
	tap_result(n == 16 && !memcmp(back, pt, 16), "gcm(aes) decrypt restores plaintext");

	memcpy(forged, out, 32);
	forged[31] ^= 1;
	n = aead_op(tfm, ALG_OP_DECRYPT, iv, forged, 32, back, sizeof(back));
	tap_result(n == -EBADMSG, "gcm(aes) rejects a forged tag with EBADMSG");
	close(tfm);

	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		char drv[128] = "?";
		int prio = -1, fd = alg_bind(others[i].type, others[i].name);
		char what[96];

		snprintf(what, sizeof(what), "bind %s %s", others[i].type,
			 others[i].name);
		/*
		 * Removed upstream, not missing here: the poly1305 shash in
		 * 6.16, the ghash one in 7.1 (both lib/crypto only now).
		 */
		int listed = best_driver(others[i].name, drv, sizeof(drv), &prio);

		if (others[i].gone && kernel_release() >= others[i].gone &&
		    !listed && fd < 0) {
			tap_skip("upstream removed this algorithm before this kernel",
				 what);
			continue;
		}
		tap_result(fd >= 0, "%s -> %s (priority %d)", what, drv, prio);
		if (fd >= 0)
			close(fd);
	}

	for (size_t i = 0; i < 2; i++) {
		char why[64], name[64];

		snprintf(name, sizeof(name), "/proc/crypto lists %s", accel[i][1]);
		snprintf(why, sizeof(why), "guest CPU has no %s", accel[i][0]);
		if (cpu_has(accel[i][0]))
			tap_result(driver_listed(accel[i][1]), "%s", name);
		else
			tap_skip(why, name);
	}

	return tap_finish();
}
