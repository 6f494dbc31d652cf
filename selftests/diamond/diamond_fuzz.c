// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_fuzz: randomized AF_ALG traffic at the diamond template. At least
 * 10,240 requests (encrypt and decrypt, both suites) with random body
 * layouts, lengths, IVs and IV sizes, assoclens (within, at and beyond the
 * data and the AD limit), output buffer sizes, split sends (MSG_MORE) and
 * page-straddling buffers; between them random setkey (good blobs, mutated
 * blobs, garbage of any length), setauthsize and binds of random instance
 * names such as diamond(ctr(aes),poly1305) or diamond(foo).
 *
 * Every call must return success or an errno from the set allowed for that
 * call. An encrypt on a tfm whose last setkey took an open-only key (blob
 * byte 7 bit 0, kernel-api.rst "Open-only keys"; some of the well-formed
 * blobs set it, and a changed byte can) must be exactly -EPERM, or -EINVAL
 * when AF_ALG's own checks refuse the request first (IV size, assoclen
 * over the data, an output buffer too short for the type bound); on any
 * other tfm -EPERM is never allowed, and a decrypt is what it is on any
 * key (genuine epochs open). The traffic runs in forked children, batch by batch, so a crash
 * shows as a failed batch rather than a lost test. Kernel-side BUG/WARNING/
 * Oops are caught by run-vm's dmesg check. TAP 13; exit 4 when the diamond
 * algorithms are not available.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/if_alg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <diamond/util.h>
#include "tap.h"
#include "afalg.h"
#include "dmd_test.h"

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

#define BATCHES		10	/* DMD_FUZZ_BATCHES overrides it */
#define BATCHES_MAX	1000
#define PER_BATCH	1024
#define NTFMS		6
#define BUF		(3 * 4096 + DMD_T_MAX_BODY)

static const char *const names[] = {
	"diamond(ctr(aes),poly1305)", "diamond(chacha20,ghash)", "diamond(foo)",
	"diamond()", "diamond(ctr(aes))", "diamond(chacha20)",
	"diamond(gcm(aes),ghash)", "diamond(ctr(aes),ghash,x)",
	"diamond(ctr(aes-generic),ghash-generic)",
	"diamond(chacha20-generic,poly1305-generic)",
	"diamond(diamond(ctr(aes),ghash))", "diamond(ecb(aes),ghash)",
	"diamond(ctr(des3_ede),ghash)", "diamond(ctr(aes),sha256)",
};

struct stats {
	unsigned long req, req_ok, bind, setkey, authsize, bad;
	unsigned long err[140];
};

static struct stats st;
/*
 * rng drives the traffic; oo_rng (from the same seed) only which
 * well-formed blobs are made open-only, so that adding it did not change
 * what a seed draws before its first such blob.
 */
static struct dmd_rng rng, oo_rng;
static int tfm[NTFMS];
static unsigned int tfm_suite[NTFMS];
/* The last setkey of the tfm took an open-only key; bound as type "diamond". */
static int open_only[NTFMS], diamond_type[NTFMS];
/* authsize 12 took: the tfm verifies grid units, not epochs */
static int grid[NTFMS];
static unsigned long oo_encrypts, oo_eperm;
/* What the state of each tfm must be, when we know it (core's view). */
static struct dmd_state model[NTFMS];
static int known[NTFMS];
static unsigned long genuine_sent, genuine_refused;

static int allowed(const int *set, int err)
{
	for (; *set != 1; set++)
		if (*set == err)
			return 1;
	return 0;
}

static const int ok_bind[] = { 0, -ENOENT, -EINVAL, -ENAMETOOLONG, 1 };
/*
 * Authsize 12 is the packet grid's (kernel-api.rst): refused on a key not
 * for packets (-EKEYREJECTED), and it makes setkey refuse such keys; a
 * tfm with a grid state refuses authsize 16 (-EBUSY) and a grid tfm
 * seals nothing (-EOPNOTSUPP).
 */
static const int ok_setkey[] = { 0, -EINVAL, -EKEYREJECTED, 1 };
static const int ok_authsize[] = { 0, -EINVAL, -EKEYREJECTED, -EBUSY, 1 };
static const int ok_req[] = {
	0, -EINVAL, -EBADMSG, -EKEYEXPIRED, -ERANGE, -EMSGSIZE, -ENOKEY,
	-ENOSPC, -EOPNOTSUPP, -EKEYREJECTED, 1
};

static void check(const char *what, const int *set, int err,
		  unsigned long *count)
{
	(*count)++;
	if (-err >= 0 && -err < 140)
		st.err[-err]++;
	if (allowed(set, err))
		return;
	if (st.bad++ < 10) {
		printf("# %s returned %s, not in the allowed set\n", what,
		       dmd_errname(err));
		fflush(stdout);
	}
}

static const char *random_name(char *buf, size_t len)
{
	uint32_t k = dmd_rand_below(&rng, 100);
	size_t i, n;

	if (k < 40)
		return DMD_ALG_SUITE1;
	if (k < 80)
		return DMD_ALG_SUITE2;
	if (k < 95)
		return names[dmd_rand_below(&rng, sizeof(names) / sizeof(names[0]))];
	n = 1 + dmd_rand_below(&rng, 20);
	snprintf(buf, len, "diamond(");
	for (i = 0; i < n && 8 + i + 2 < len; i++)
		buf[8 + i] = "abcdefghijklmnopqrstuvwxyz0123456789(),-"[dmd_rand_below(&rng, 40)];
	buf[8 + i] = ')';
	buf[9 + i] = 0;
	return buf;
}

/*
 * afalg_bind(), saying in *@dtype whether the tfm is of the module's own
 * AF_ALG type (whose recvmsg refuses any short output buffer) rather than
 * "aead" (which shortens the request instead, while the data allows).
 */
static int bind_name(const char *name, int *dtype)
{
	int fd = afalg_bind_type("aead", name);

	*dtype = 0;
#ifdef DMD_AFALG_MOCK
	*dtype = 1;	/* the mock refuses any short output buffer */
#endif
	if (fd != -ENOENT || strncmp(name, "diamond(", 8))
		return fd;
	fd = afalg_bind(name);
	*dtype = fd >= 0;
	return fd;
}

static void do_bind(void)
{
	char buf[48];
	const char *name = random_name(buf, sizeof(buf));
	unsigned int slot = dmd_rand_below(&rng, NTFMS);
	int dtype, fd = bind_name(name, &dtype);

	check(name, ok_bind, fd < 0 ? fd : 0, &st.bind);
	if (fd < 0)
		return;
	afalg_close(tfm[slot]);
	tfm[slot] = fd;
	tfm_suite[slot] = strstr(name, "chacha") ? 2 : 1;
	known[slot] = 0;
	open_only[slot] = 0;	/* keyless */
	grid[slot] = 0;
	diamond_type[slot] = dtype;
}

static void random_blob(uint8_t *blob, size_t *len, unsigned int suite)
{
	uint32_t k = dmd_rand_below(&rng, 10);
	static const uint32_t bs[] = { 1, 2, 4, 16, 1024, 65535 };

	if (k < 5) {		/* well-formed, maybe the other suite */
		unsigned int s = dmd_rand_below(&rng, 8) ? suite : 3 - suite;
		uint64_t e = dmd_rand_below(&rng, 4) ? dmd_rand_below(&rng, 100) :
			     dmd_rand(&rng);

		if (e == UINT64_MAX)
			e--;
		*len = dmd_make_blob(&rng, blob, s, dmd_rand_below(&rng, 3),
				     bs[dmd_rand_below(&rng, 6)], e);
		if (!dmd_rand_below(&oo_rng, 4))	/* version 1: no CRC */
			blob[DMD_BLOB_OFF_FLAGS] |= DMD_BLOB_FLAG_OPEN_ONLY;
	} else if (k < 8) {	/* well-formed, then one byte changed */
		*len = dmd_make_blob(&rng, blob, suite, dmd_rand_below(&rng, 3),
				     16, 0);
		blob[dmd_rand_below(&rng, (uint32_t)*len)] ^=
			(uint8_t)(1 + dmd_rand_below(&rng, 255));
		if (!dmd_rand_below(&rng, 4))
			*len += dmd_rand_below(&rng, 3) - 1;
	} else {		/* garbage */
		*len = dmd_rand_below(&rng, 100);
		dmd_rand_bytes(&rng, blob, *len);
		if (*len >= 4 && dmd_rand_below(&rng, 2))
			memcpy(blob, "DMND", 4);
	}
}

static void do_setkey(unsigned int slot)
{
	uint8_t blob[128];
	size_t len;

	int err;

	random_blob(blob, &len, tfm_suite[slot]);
	err = afalg_setkey(tfm[slot], blob, len);
	check("setkey", ok_setkey, err, &st.setkey);
	/* A key the module took is a blob: byte 7 holds its flags. */
	open_only[slot] = !err && len > DMD_BLOB_OFF_FLAGS &&
			  (blob[DMD_BLOB_OFF_FLAGS] & DMD_BLOB_FLAG_OPEN_ONLY);
	known[slot] = !err && !dmd_blob_parse(&model[slot], blob, len) &&
		      model[slot].suite == tfm_suite[slot];
}

/* After a successful request at @epoch the state is at @epoch + 1. */
static void advance(unsigned int slot, uint64_t epoch)
{
	struct dmd_state *m = &model[slot];
	uint8_t r[DMD_KEY_MAX];

	if (!known[slot])
		return;
	if (epoch < m->epoch || epoch - m->epoch > DMD_DEFAULT_MAX_SKIP) {
		known[slot] = 0;	/* the kernel disagrees; reported below */
		return;
	}
	while (m->epoch <= epoch) {
		dmd_epoch_update(m->suite, m->key, m->key, r);
		m->epoch++;
	}
}

/* A genuine epoch for @slot's current state: AD || ct body || tag. */
static size_t make_genuine(unsigned int slot, uint8_t *p, size_t *adlen,
			   uint64_t *epoch)
{
	struct dmd_state s = model[slot];
	uint8_t pt[4 * 66];

	s.flags = 0;	/* the core seals nothing under an open-only state */
	uint32_t n = 1 + dmd_rand_below(&rng, s.b < 4 ? s.b : 4);
	size_t len;

	*adlen = dmd_rand_below(&rng, 32);
	dmd_rand_bytes(&rng, p, *adlen);
	len = dmd_rand_body(&rng, pt, n, 64);
	*epoch = s.epoch + dmd_rand_below(&rng, 3);
	if (*epoch >= UINT64_MAX - 1 ||
	    dmd_core_seal_at(&s, *epoch, p, *adlen, pt, len, p + *adlen))
		return 0;
	return *adlen + len + DMD_TAG_SIZE;
}

static void do_authsize(unsigned int slot)
{
	unsigned int a = dmd_rand_below(&rng, 3) ? 16 : dmd_rand_below(&rng, 40);
	int err = afalg_setauthsize(tfm[slot], a);

	check("setauthsize", ok_authsize, err, &st.authsize);
	if (!err)
		grid[slot] = a == 12;
}

/* Build request data: AD || body (|| tag-sized tail for decrypt). */
static size_t make_data(uint8_t *p, size_t *adlen, int enc)
{
	uint32_t k = dmd_rand_below(&rng, 10);
	size_t len;

	*adlen = dmd_rand_below(&rng, 10) ? dmd_rand_below(&rng, 40) :
		 dmd_rand_below(&rng, 1100);
	dmd_rand_bytes(&rng, p, *adlen);
	if (k < 6) {		/* structured body */
		len = dmd_rand_body(&rng, p + *adlen,
				    1 + dmd_rand_below(&rng,
						       dmd_rand_below(&rng, 4) ? 4 : 20),
				    dmd_rand_below(&rng, 8) ? 64 : 4200);
		if (!dmd_rand_below(&rng, 6) && len)	/* break it a bit */
			p[*adlen + dmd_rand_below(&rng, (uint32_t)len)] ^=
				(uint8_t)(1u << dmd_rand_below(&rng, 8));
		if (!dmd_rand_below(&rng, 8) && len)
			len -= 1 + dmd_rand_below(&rng, (uint32_t)(len < 8 ? len : 8));
	} else {		/* raw bytes */
		len = dmd_rand_below(&rng, 5) ? dmd_rand_below(&rng, 200) :
			dmd_rand_below(&rng, 9000);
		dmd_rand_bytes(&rng, p + *adlen, len);
	}
	if (!enc)
		dmd_rand_bytes(&rng, p + *adlen + len, DMD_TAG_SIZE), len += DMD_TAG_SIZE;
	return *adlen + len;
}

/*
 * An encrypt on an open-only key: -EINVAL if AF_ALG refuses it before the
 * module sees it (kernel-api.rst: its checks come first): an IV that is
 * not 8 bytes or an assoclen of 2^31 or more (both refused by sendmsg,
 * af_alg_cmsg_send(), whatever follows), assoclen over the data, or an
 * output buffer short of inlen + 16 by more than the body ("aead"
 * shortens the request to fit) or at all (type "diamond"). Type "aead"
 * runs nothing for an empty output buffer (its recvmsg loops while the
 * buffer has room): 0, unless sendmsg refused. Otherwise exactly -EPERM.
 */
static void check_open_only(unsigned int slot, size_t ivlen,
			    uint32_t assoclen, size_t inlen, size_t outlen,
			    int err)
{
	size_t need = inlen + DMD_TAG_SIZE;
	int afalg = ivlen != DMD_IV_SIZE || assoclen > inlen ||
		    (outlen < need &&
		     (diamond_type[slot] || inlen - assoclen < need - outlen));
	int at_send = ivlen != DMD_IV_SIZE || assoclen >= 0x80000000u;
	int want = afalg ? -EINVAL : -EPERM;

	if (!at_send && !diamond_type[slot] && !outlen)
		want = 0;

	st.req++;
	oo_encrypts++;
	oo_eperm += err == -EPERM;
	if (-err >= 0 && -err < 140)
		st.err[-err]++;
	if (err == want)
		return;
	if (st.bad++ < 10) {
		printf("# encrypt on an open-only key returned %s, want %s (ivlen %zu, assoclen %u, inlen %zu, outlen %zu)\n",
		       dmd_errname(err), dmd_errname(want), ivlen, assoclen,
		       inlen, outlen);
		fflush(stdout);
	}
}

/* The request, sent in 1..3 pieces with MSG_MORE on all but the last. */
static int do_request(unsigned int slot, uint8_t *in, uint8_t *out)
{
	size_t adlen, inlen = 0, outlen, ivlen = 8, cut[4], i, pieces;
	int enc = (int)dmd_rand_below(&rng, 2), op, genuine = 0;
	uint8_t iv[24];
	uint32_t assoclen;
	uint64_t epoch = 0;
	ssize_t n;

	if (!enc && known[slot] && !grid[slot] && dmd_rand_below(&rng, 10) < 4)
		inlen = make_genuine(slot, in, &adlen, &epoch);
	dmd_rand_bytes(&rng, iv + 8, sizeof(iv) - 8);
	if (inlen) {
		genuine = 1;
		assoclen = (uint32_t)adlen;
		outlen = inlen - DMD_TAG_SIZE;
		dmd_store64_le(iv, epoch);
	} else {
		inlen = make_data(in, &adlen, enc);
		assoclen = (uint32_t)adlen;
		switch (dmd_rand_below(&rng, 12)) {
		case 0: assoclen = (uint32_t)inlen + dmd_rand_below(&rng, 20); break;
		case 1: assoclen = dmd_rand_below(&rng, (uint32_t)inlen + 1); break;
		case 2: assoclen = (uint32_t)dmd_rand(&rng); break;
		}
		if (!dmd_rand_below(&rng, 10))
			ivlen = dmd_rand_below(&rng, 24);
		epoch = dmd_rand_below(&rng, 3) ? dmd_rand_below(&rng, 64) :
			dmd_rand(&rng);
		if (known[slot] && dmd_rand_below(&rng, 2))
			epoch = model[slot].epoch + dmd_rand_below(&rng, 3);
		dmd_store64_le(iv, epoch);
		outlen = enc ? inlen + DMD_TAG_SIZE : inlen;
		if (!dmd_rand_below(&rng, 8))
			outlen = dmd_rand_below(&rng, (uint32_t)outlen + 64);
	}

	op = afalg_accept(tfm[slot]);
	if (op < 0) {
		check("accept", ok_req, op, &st.req);
		return 0;
	}
	pieces = 1 + (dmd_rand_below(&rng, 4) ? 0 : 1 + dmd_rand_below(&rng, 2));
	for (i = 0; i + 1 < pieces; i++)
		cut[i] = dmd_rand_below(&rng, (uint32_t)inlen + 1);
	for (i = 1; i + 1 < pieces; i++)	/* ascending */
		if (cut[i] < cut[i - 1]) {
			size_t t = cut[i];

			cut[i] = cut[i - 1];
			cut[i - 1] = t;
		}
	n = afalg_aead_op_split(op, enc, iv, ivlen, assoclen, in, inlen, cut,
				(unsigned int)(pieces - 1), out, outlen);
	afalg_close(op);
	if (enc && open_only[slot])
		check_open_only(slot, ivlen, assoclen, inlen, outlen,
				n < 0 ? (int)n : 0);
	else
		check(enc ? "encrypt" : "decrypt", ok_req, n < 0 ? (int)n : 0,
		      &st.req);
	if (n >= 0) {
		st.req_ok++;
		/* n = 0: an empty output buffer, type "aead" ran nothing */
		if (n > 0)
			advance(slot, epoch);
	}
	if (genuine) {
		genuine_sent++;
		if (n < 0 || (size_t)n != outlen) {
			if (genuine_refused++ < 5)
				printf("# genuine epoch %llu (%zu bytes in %zu pieces) refused: %s\n",
				       (unsigned long long)epoch, inlen, pieces,
				       n < 0 ? dmd_errname((int)n) : "short output");
			known[slot] = 0;
		}
	}
	return 1;
}

static int batch(unsigned int b, uint64_t seed)
{
	/* straddle page boundaries: buffers start 7 bytes before a page */
	uint8_t *area = mmap(NULL, 2 * BUF + 8192, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *in = area + 4096 - 7, *out = area + BUF + 8192 - 4096 - 3;
	unsigned int i, slot, done = 0;

	(void)b;
	rng.s = seed;
	oo_rng.s = seed ^ 0x6f70656e2d6f6e6cull;
	memset(&st, 0, sizeof(st));
	memset(known, 0, sizeof(known));
	memset(open_only, 0, sizeof(open_only));
	for (i = 0; i < NTFMS; i++) {
		tfm_suite[i] = 1 + i % 2;
		tfm[i] = bind_name(dmd_alg_name(tfm_suite[i]), &diamond_type[i]);
		if (tfm[i] >= 0 && i) {
			uint8_t blob[DMD_BLOB_MAX];
			size_t len = dmd_make_blob(&rng, blob, tfm_suite[i],
						   0, 16, 0);

			known[i] = !dmd_rekey(tfm[i], blob, len) &&
				   !dmd_blob_parse(&model[i], blob, len);
		}
	}
	while (done < PER_BATCH) {
		uint32_t k = dmd_rand_below(&rng, 100);

		slot = dmd_rand_below(&rng, NTFMS);
		if (k < 1)
			do_bind();
		else if (tfm[slot] < 0)
			continue;
		else if (k < 6)
			do_setkey(slot);
		else if (k < 8)
			do_authsize(slot);
		else
			done += do_request(slot, in, out);
	}
	for (i = 0; i < NTFMS; i++)
		afalg_close(tfm[i]);
	printf("# batch %u: %lu requests (%lu succeeded), %lu setkey, %lu setauthsize, %lu binds; errnos:",
	       b, st.req, st.req_ok, st.setkey, st.authsize, st.bind);
	for (i = 1; i < 140; i++)
		if (st.err[i])
			printf(" %s=%lu", dmd_errname(-(int)i), st.err[i]);
	printf("\n# batch %u: %lu genuine epochs decrypted, %lu refused; %lu encrypts on an open-only key, %lu of them EPERM\n",
	       b, genuine_sent, genuine_refused, oo_encrypts, oo_eperm);
	fflush(stdout);
	munmap(area, 2 * BUF + 8192);
	return st.bad || genuine_refused || genuine_sent < 20 ? 1 : 0;
}

/*
 * Batches to run: BATCHES, or DMD_FUZZ_BATCHES (1..BATCHES_MAX). The
 * gateway matrix runs fewer in its cells than make check does on its own
 * kernel (tools/kernel/run-cell): each cell has its own seed, and ten
 * batches took 49 s of a TCG arm64 guest's kselftest run.
 */
static unsigned int batch_count(void)
{
	const char *s = getenv("DMD_FUZZ_BATCHES");
	char *end;
	unsigned long n;

	if (!s || !*s)
		return BATCHES;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || *end || n < 1 || n > BATCHES_MAX) {
		tap_diag("DMD_FUZZ_BATCHES=%s is not 1..%u: %u batches", s,
			 BATCHES_MAX, BATCHES);
		return BATCHES;
	}
	return (unsigned int)n;
}

int main(void)
{
	uint64_t seed = dmd_seed();
	unsigned int b, total = 0, nbatches;
	int fd, status;
	pid_t pid;

	tap_header();
	tap_diag("seed %llu (set DMD_SEED to repeat)", (unsigned long long)seed);
	fd = afalg_bind(DMD_ALG_SUITE1);
	if (fd < 0) {
		tap_diag("bind %s: %s", DMD_ALG_SUITE1, dmd_errname(fd));
		tap_skip("diamond AEAD not available", "diamond_fuzz");
		tap_trailing_plan();
		return TAP_EXIT_SKIP;
	}
	afalg_close(fd);
	nbatches = batch_count();
	for (b = 0; b < nbatches; b++) {
		fflush(stdout);
		pid = fork();
		if (pid == 0)
			_exit(batch(b, seed + b * 0x100000001ull));
		if (pid < 0 || waitpid(pid, &status, 0) != pid) {
			tap_result(0, "batch %u: fork/wait", b);
			continue;
		}
		if (WIFSIGNALED(status)) {
			tap_result(0, "batch %u: %u requests, process killed by signal %d",
				   b, PER_BATCH, WTERMSIG(status));
			continue;
		}
		total += PER_BATCH;
		tap_result(WEXITSTATUS(status) == 0,
			   "batch %u: %u random requests, every call returned an allowed errno, genuine epochs opened",
			   b, PER_BATCH);
	}
	tap_result(total == nbatches * PER_BATCH,
		   "%u randomized requests in %u batches completed without a crash",
		   total, nbatches);
	tap_trailing_plan();
	return tap_finish();
}
