// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Issue 20 item 6, the compromised-gateway test: what the ingest's own
 * uid can get at. Static, for the VM (selftests/userspace/custody-item6.sh
 * drives it, in the userspace-vm suite and in the matrix cells).
 *
 *   custody_probe keys STATEFILE...
 *	the hex of the keys the test derives from each clear state file
 *	(the state the root made), one per line: E_e, E_{e+1}, then the
 *	slot keys R_{e,j} and R_{e+1,j}, j = 0 .. b - 1 (spec section 3)
 *   custody_probe run N DIR FRAMES AFTER HEX... -- COMMAND [ARG...]
 *	as the current user: COMMAND (the gateway, reading stdin) as a
 *	child, FRAMES on its stdin, and once N lines came out on its
 *	stdout, while it runs, search for each HEX key (each 16-byte
 *	chunk of it) in /proc/CHILD/mem, in every file of DIR, in every
 *	key it can view (/proc/keys, the special keyrings) and KEYCTL_READ
 *	(what keyctl read, print and pipe all call), and in what its
 *	AF_ALG sockets give (each taken with pidfd_getfd: every SOL_ALG
 *	getsockopt, DIAMOND_ALG_GET_WRAPPED of its operation sockets and
 *	of one accepted from each of its tfms); then encrypt on each of
 *	those tfms. Then AFTER (a forged epoch and more, "-" for none) on
 *	its stdin, stdin closed, its exit awaited. Prints "lines",
 *	"hits mem N files N keys N sockets N", "read DESC RESULT",
 *	"keyring ...", "sockets ..." and "encrypt ..." lines. The child is
 *	its own, so Yama's ptrace_scope 1 lets it read the memory and take
 *	the descriptors: a 0 is a finding, not a refusal. Before the
 *	"lines" line, the keys by serial (as serial, below).
 *   custody_probe serial DIR...
 *	keys by serial (issue 34 item 2): every non-keyring key of the
 *	walk above (the special keyrings, what they link, recursively,
 *	and /proc/keys) tried with ALG_SET_KEY_BY_KEY_SERIAL on every
 *	name and driver of /proc/crypto bound as each AF_ALG type that
 *	binds its kind (skcipher, aead, hash, rng, and diamond.ko's
 *	"diamond"; below): "serial
 *	keys N algs N binds N bound N tried N accepted N", one "serial
 *	accepted TYPE ALG (NAME) key DESCRIBE" line per acceptance and
 *	"serial refused ERRNO N...". Each key chacha20 accepted is then
 *	used as the red team did on every DMDW blob found (DIR's files;
 *	in run also the exports): HChaCha20 of the blob's nonce from one
 *	keystream block, the blob opened with ChaCha20-Poly1305 here, the
 *	plaintext searched for the patterns: "unwrapped N of N blobs hits
 *	N". Any acceptance is a finding; on 6.1 every try is ENOPROTOOPT.
 *   custody_probe plant ID
 *	as the ingest could: its own logon key diamond:wrap (32 known
 *	bytes) in its thread keyring, searched before the session
 *	keyring (it cannot add one of the module's type), then a
 *	"diamond" tfm keyed by reference to diamond:ID and its export
 *	asked for: "plant export LEN" is an export, which the module
 *	seals under the loader's wrap key of its own type only, "plant
 *	export ERROR" a refusal.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <linux/if_alg.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <diamond/chacha20.h>
#include <diamond/chain.h>
#include <diamond/poly1305.h>
#include <diamond/spec.h>
#include <diamond/util.h>

#include "../../userspace/lib/internal.h"

#ifndef SOL_ALG
#define SOL_ALG		279
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open	434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd	438
#endif
#ifndef ALG_SET_KEY_BY_KEY_SERIAL
#define ALG_SET_KEY_BY_KEY_SERIAL	7	/* Linux 6.2 */
#endif
#define GIVE_UP_SECS	600	/* a gateway that hangs; see run() */
#define KEYCTL_DESCRIBE	6
#define KEYCTL_READ	11

#define MAXPAT	2048
static uint8_t pat[MAXPAT][16];
static int npat;
/* Patterns by their first two bytes: head[] and next[] index pat + 1. */
static uint16_t head[65536], next[MAXPAT];

static int add_hex(const char *h)
{
	size_t n = strlen(h) / 2, i, c;
	unsigned int v, b;
	uint8_t k[32];

	if (n != 16 && n != 32)
		return -1;
	for (i = 0; i < n; i++) {
		if (sscanf(h + 2 * i, "%2x", &v) != 1)
			return -1;
		k[i] = (uint8_t)v;
	}
	for (c = 0; c < n && npat < MAXPAT; c += 16) {
		memcpy(pat[npat], k + c, 16);
		b = (unsigned int)k[c] << 8 | k[c + 1];
		next[npat] = head[b];
		head[b] = (uint16_t)++npat;
	}
	return 0;
}

/* Occurrences of any pattern in @p: a table walk, fast enough for TCG. */
static long count(const uint8_t *p, size_t len)
{
	long hits = 0;
	size_t i;
	int j;

	for (i = 0; i + 16 <= len; i++)
		for (j = head[(unsigned int)p[i] << 8 | p[i + 1]]; j;
		     j = next[j - 1])
			if (!memcmp(p + i, pat[j - 1], 16))
				hits++;
	return hits;
}

/*
 * The DMDW blobs the process obtained (state files, exports), each once:
 * what keys by serial are tried on (custody_probe serial, below).
 */
#define MAXBLOBS	128
static uint8_t blobs[MAXBLOBS][DMD_WRAP_MAX];
static size_t blob_len[MAXBLOBS];
static int nblobs;

static int have_blob(const uint8_t *p, size_t n)
{
	int j;

	for (j = 0; j < nblobs; j++)
		if (blob_len[j] == n && !memcmp(blobs[j], p, n))
			return 1;
	return 0;
}

/*
 * Every DMDW blob in @p: its magic, version and a length that fits. A
 * version 4 state file's clear copy of the header (userspace.rst, section
 * 3) is followed by the same 32 bytes, the blob's own: not a blob.
 */
static void add_blobs(const uint8_t *p, size_t len)
{
	size_t i, n, l;

	for (i = 0; i + DMD_WRAP_SIZE(0) <= len && nblobs < MAXBLOBS; i++) {
		if (memcmp(p + i, DMD_WRAP_MAGIC, 4) ||
		    p[i + DMD_WRAP_OFF_VERSION] != DMD_WRAP_VERSION ||
		    !memcmp(p + i, p + i + DMD_WRAP_AD_SIZE, DMD_WRAP_AD_SIZE))
			continue;
		l = dmd_load32_le(p + i + DMD_WRAP_OFF_LEN);
		n = DMD_WRAP_SIZE(l);
		if (l > DMD_WRAP_INNER_MAX || n > len - i || have_blob(p + i, n))
			continue;
		memcpy(blobs[nblobs], p + i, n);
		blob_len[nblobs++] = n;
	}
}

/* Every readable mapping of @pid through /proc/PID/mem. */
static long search_mem(pid_t pid, long *bytes)
{
	char path[64], line[512];
	unsigned long a, b;
	char perm[8];
	long hits = 0;
	uint8_t *buf;
	FILE *maps;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	maps = fopen(path, "r");
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	fd = open(path, O_RDONLY);
	if (!maps || fd < 0) {
		printf("mem-open %s\n", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%lx-%lx %7s", &a, &b, perm) != 3 ||
		    perm[0] != 'r' || strstr(line, "[vvar]"))
			continue;
		buf = malloc(b - a);
		if (buf && pread(fd, buf, b - a, (off_t)a) == (ssize_t)(b - a)) {
			hits += count(buf, b - a);
			*bytes += (long)(b - a);
		}
		free(buf);
	}
	fclose(maps);
	close(fd);
	return hits;
}

static long search_file(const char *path)
{
	uint8_t buf[1 << 16];
	long hits = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		hits += count(buf, (size_t)n);
		add_blobs(buf, (size_t)n);
	}
	close(fd);
	return hits;
}

/* keyctl read of a custody key the process finds: what comes back. */
static long read_key(const char *desc)
{
	uint8_t buf[512];
	long serial = syscall(SYS_request_key, DMD_KEY_TYPE, desc, NULL, 0), n;

	if (serial < 0) {
		printf("read %s find:%s\n", desc, strerror(errno));
		return 0;
	}
	n = syscall(SYS_keyctl, KEYCTL_READ, serial, buf, sizeof(buf));
	printf("read %s %s\n", desc, n < 0 ? strerror(errno) : "DATA");
	return n > 0 ? count(buf, (size_t)n) + 1 : 0;
}

/* Every file of @dir. */
static long search_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];
	long hits = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		hits += search_file(path);
	}
	closedir(d);
	return hits;
}

#define MAXKEYS	256
static int32_t seen[MAXKEYS];
static int nseen;

static int add_serial(int32_t id)
{
	int i;

	for (i = 0; i < nseen; i++)
		if (seen[i] == id)
			return 0;
	if (nseen == MAXKEYS)
		return 0;
	seen[nseen++] = id;
	return 1;
}

/*
 * KEYCTL_READ (keyctl read, print and pipe) of key @id: its hits; what
 * a keyring gives (its members' serials) is walked too.
 */
static long read_serial(int32_t id, int *readable, int *keyrings)
{
	uint8_t buf[1 << 15];
	char desc[256];
	long n, hits, i;

	if (!add_serial(id))
		return 0;
	n = syscall(SYS_keyctl, KEYCTL_DESCRIBE, (long)id, desc,
		    sizeof(desc) - 1);
	if (n <= 0)
		snprintf(desc, sizeof(desc), "?");
	else
		desc[n < (long)sizeof(desc) ? n : (long)sizeof(desc) - 1] = 0;
	n = syscall(SYS_keyctl, KEYCTL_READ, (long)id, buf, sizeof(buf));
	if (n < 0)
		return 0;
	if (n > (long)sizeof(buf))
		n = sizeof(buf);
	hits = count(buf, (size_t)n);
	if (!strncmp(desc, "keyring;", 8)) {
		++*keyrings;
		for (i = 0; i + 4 <= n; i += 4) {
			int32_t m;

			memcpy(&m, buf + i, 4);
			hits += read_serial(m, readable, keyrings);
		}
	} else {
		++*readable;
		printf("keyring read %s: %ld bytes\n", desc, n);
	}
	return hits;
}

/*
 * Every key the process can view: the special keyrings (thread to user
 * session, walked), then every line of /proc/keys.
 */
static long search_keys(void)
{
	int readable = 0, keyrings = 0, id;
	char line[512];
	long hits = 0;
	unsigned int s;
	FILE *f;

	for (id = -1; id >= -5; id--) {
		long r = syscall(SYS_keyctl, 0 /* GET_KEYRING_ID */, id, 0);

		if (r > 0)
			hits += read_serial((int32_t)r, &readable, &keyrings);
	}
	f = fopen("/proc/keys", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%x", &s) == 1)
			hits += read_serial((int32_t)s, &readable, &keyrings);
	if (f)
		fclose(f);
	printf("keyring viewable %d keyrings %d readable %d%s\n", nseen,
	       keyrings, readable, f ? "" : " (no /proc/keys)");
	return hits;
}

static void put_hex(const uint8_t *p, size_t k)
{
	size_t i;

	for (i = 0; i < k; i++)
		printf("%02x", p[i]);
	printf("\n");
}

/* E_e of @st, then its epoch's slot keys R_{e,j}, j < b (spec 3). */
static void put_keys(const struct dmd_state *st, size_t k)
{
	uint8_t e[DMD_KEY_MAX], r[DMD_KEY_MAX], hp[32];
	struct dmd_stream str;
	uint32_t j;

	put_hex(st->key, k);
	dmd_epoch_update(st->suite, st->key, e, r);
	for (j = 0; j < st->b; j++) {
		put_hex(r, k);
		dmd_slot_open(&str, st->suite, r, r, hp);
		dmd_stream_wipe(&str);
	}
	dmd_wipe(e, sizeof(e));
	dmd_wipe(r, sizeof(r));
	dmd_wipe(hp, sizeof(hp));
}

static int keys(int argc, char **argv)
{
	uint8_t blob[DIAMOND_BLOB_MAX];
	struct diamond_store *s;
	struct dmd_state st;
	char *dir, *slash;
	unsigned int id;
	size_t len, k;
	int a;

	for (a = 0; a < argc; a++) {
		dir = strdup(argv[a]);
		slash = strrchr(dir, '/');
		if (!slash || sscanf(slash + 1, "%u.state", &id) != 1)
			return 2;
		*slash = 0;
		if (diamond_store_open(&s, dir, 0) ||
		    diamond_store_load(s, id, blob, &len) ||
		    dmd_blob_parse(&st, blob, len) != DMD_OK)
			return 1;
		k = dmd_key_size(st.suite);
		put_keys(&st, k);
		dlib_state_advance(&st, st.epoch);	/* E_{e+1} */
		put_keys(&st, k);
		diamond_store_close(s);
		free(dir);
	}
	return 0;
}

/* What getsockopt(SOL_ALG, @opt) gives on @fd: its hits; -1 refused. */
static long sockopt_hits(int fd, int opt, size_t *len)
{
	uint8_t buf[4096];
	socklen_t l = sizeof(buf);

	if (getsockopt(fd, SOL_ALG, opt, buf, &l))
		return -1;
	*len = l;
	add_blobs(buf, l);
	return count(buf, l);
}

/* Encrypt of 16 bytes at epoch 0 on the operation socket @op: errno. */
static int try_encrypt(int op)
{
	uint8_t in[16] = { 0 }, iv[DMD_IV_SIZE] = { 0 }, out[64];
	ssize_t n = dlib_alg_request(op, 1, in, sizeof(in), 0, iv, out,
				     sizeof(out));

	return n < 0 ? (int)-n : 0;
}

struct sockres {
	int alg, answers, exports, tfms, eperm, enc_ok, enc_other, other_err;
	long bytes;
};

/*
 * Everything an AF_ALG socket @fd of the gateway gives: every SOL_ALG
 * option (the export among them), and for a tfm socket an operation
 * socket of its own: its export, then an encrypt.
 */
static long probe_socket(int fd, struct sockres *r)
{
	long hits = 0, h;
	size_t len = 0;
	int opt, op, err;

	for (opt = 1; opt <= 16; opt++)
		if ((h = sockopt_hits(fd, opt, &len)) >= 0) {
			hits += h;
			r->answers++;
			r->bytes += (long)len;
		}
	if ((h = sockopt_hits(fd, DIAMOND_ALG_GET_WRAPPED, &len)) >= 0) {
		hits += h;
		r->exports++;
		r->bytes += (long)len;
	}
	op = accept(fd, NULL, NULL);
	if (op < 0)
		return hits;
	r->tfms++;
	if ((h = sockopt_hits(op, DIAMOND_ALG_GET_WRAPPED, &len)) >= 0) {
		hits += h;
		r->exports++;
		r->bytes += (long)len;
	}
	err = try_encrypt(op);
	if (err == EPERM)
		r->eperm++;
	else if (!err)
		r->enc_ok++;
	else {
		r->enc_other++;
		r->other_err = err;
	}
	close(op);
	return hits;
}

/* The gateway's descriptors, taken with pidfd_getfd: its AF_ALG ones. */
static long search_sockets(pid_t pid)
{
	struct sockres r = { 0 };
	char path[64], link[64];
	struct dirent *e;
	long hits = 0;
	int pfd, fd, dom;
	socklen_t l;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	d = opendir(path);
	if (pfd < 0 || !d) {
		printf("sockets open %s\n", strerror(errno));
		if (d)
			closedir(d);
		return -1;
	}
	while ((e = readdir(d))) {
		char full[sizeof(path) + 256];
		ssize_t n;

		snprintf(full, sizeof(full), "%s/%s", path, e->d_name);
		n = readlink(full, link, sizeof(link) - 1);
		if (n <= 0 || strncmp(link, "socket:", 7))
			continue;
		fd = (int)syscall(SYS_pidfd_getfd, pfd, atoi(e->d_name), 0);
		if (fd < 0) {
			printf("sockets getfd %s %s\n", e->d_name, strerror(errno));
			continue;
		}
		l = sizeof(dom);
		if (!getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &dom, &l) &&
		    dom == AF_ALG) {
			r.alg++;
			hits += probe_socket(fd, &r);
		}
		close(fd);
	}
	closedir(d);
	close(pfd);
	printf("sockets af_alg %d tfms %d options %d exports %d bytes %ld\n",
	       r.alg, r.tfms, r.answers, r.exports, r.bytes);
	printf("encrypt EPERM %d allowed %d other %d%s%s\n", r.eperm, r.enc_ok,
	       r.enc_other, r.enc_other ? " " : "",
	       r.enc_other ? strerror(r.other_err) : "");
	return hits;
}

/*
 * Keys by serial (issue 34 item 2). From Linux 6.2 any AF_ALG tfm takes
 * ALG_SET_KEY_BY_KEY_SERIAL of a user, logon, encrypted or trusted key
 * its caller may search, whatever the algorithm: a wrap key the ingest
 * can search keys chacha20 as well as diamond.ko. So every key the walk
 * of search_keys() found (seen[]) is tried on every algorithm of
 * /proc/crypto, on every AF_ALG type that can bind it; none may be
 * accepted.
 *
 * A type binds only algorithms of its kind (crypto_alloc_skcipher and
 * its kin look names up by type and mask), so the other pairs are not
 * tried: each of their binds fails with ENOENT after the kernel has
 * run modprobe twice for the name, which under TCG made the probe cost
 * minutes. An entry with no "type" line is tried on every type.
 */
#define MAXALGS	1024
static char algs[MAXALGS][64];	/* a name or driver line of /proc/crypto */
static char canon[MAXALGS][64];	/* the name line of its entry */
static unsigned int kinds[MAXALGS];	/* AF_ALG types that may bind it */
static int nalgs;

/* The AF_ALG types tried, and the /proc/crypto types each binds. */
static const char *const af_types[] = { "skcipher", "aead", "hash", "rng",
					"diamond" };
static const char *const binds_kinds[][4] = {
	{ "skcipher", "lskcipher", "cipher" },	/* (cipher: to be sure) */
	{ "aead" },
	{ "shash", "ahash" },
	{ "rng" },
	{ "aead" },	/* diamond.ko's type: its AEAD instances */
};
#define NTYPES	((int)(sizeof(af_types) / sizeof(af_types[0])))
#define ALL_KINDS	((1u << NTYPES) - 1)

/* The AF_ALG types (bits of af_types) that bind /proc/crypto type @k. */
static unsigned int kind_bits(const char *k)
{
	unsigned int bits = 0;
	int t, i;

	for (t = 0; t < NTYPES; t++)
		for (i = 0; i < 4 && binds_kinds[t][i]; i++)
			if (!strcmp(binds_kinds[t][i], k))
				bits |= 1u << t;
	return bits;
}

/* The index of @a in algs[], added with its entry's @name if new. */
static int add_alg(const char *a, const char *name)
{
	int i;

	if (strlen(a) >= sizeof(algs[0]))
		return -1;
	for (i = 0; i < nalgs; i++)
		if (!strcmp(algs[i], a))
			return i;
	if (nalgs == MAXALGS)
		return -1;
	strcpy(algs[nalgs], a);
	strcpy(canon[nalgs], name);
	return nalgs++;
}

/* The types an entry gives its name and driver (-1: not kept). */
static void add_kinds(const int idx[2], unsigned int bits)
{
	int i;

	for (i = 0; i < 2; i++)
		if (idx[i] >= 0)
			kinds[idx[i]] |= bits;
}

static void read_algs(void)
{
	char line[256], v[128], name[64] = "";
	int idx[2] = { -1, -1 }, typed = 0;
	FILE *f = fopen("/proc/crypto", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "name : %127s", v) == 1 &&
		    strlen(v) < sizeof(name)) {
			if (!typed)
				add_kinds(idx, ALL_KINDS);
			strcpy(name, v);
			idx[0] = add_alg(v, name);
			idx[1] = -1;
			typed = 0;
		} else if (sscanf(line, "driver : %127s", v) == 1) {
			idx[1] = add_alg(v, name);
		} else if (sscanf(line, "type : %127s", v) == 1) {
			add_kinds(idx, kind_bits(v));
			typed = 1;
		}
	}
	if (!typed)
		add_kinds(idx, ALL_KINDS);
	if (f)
		fclose(f);
}

struct skey {
	int32_t id;
	char desc[160];
};

/* The non-keyring keys of seen[], with KEYCTL_DESCRIBE's line. */
static int reach_keys(struct skey *k)
{
	int i, n = 0;
	long l;

	for (i = 0; i < nseen; i++) {
		l = syscall(SYS_keyctl, KEYCTL_DESCRIBE, (long)seen[i],
			    k[n].desc, sizeof(k[n].desc) - 1);
		if (l <= 0)
			strcpy(k[n].desc, "?");
		else
			k[n].desc[l < (long)sizeof(k[n].desc) ? l :
				  (long)sizeof(k[n].desc) - 1] = 0;
		if (strncmp(k[n].desc, "keyring;", 8))
			k[n++].id = seen[i];
	}
	return n;
}

static int alg_bind(const char *type, const char *name)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	/* Both NUL-terminated by the zeroed tail: add_alg() kept < 64. */
	memcpy(sa.salg_type, type, strnlen(type, sizeof(sa.salg_type) - 1));
	memcpy(sa.salg_name, name, strnlen(name, sizeof(sa.salg_name) - 1));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* One block of a skcipher @tfm: 64 zero bytes encrypted under @iv. */
static int sk_block(int tfm, const uint8_t iv[16], uint8_t out[64])
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(4) + CMSG_SPACE(sizeof(struct af_alg_iv) + 16)];
	} cb;
	uint8_t zero[64] = { 0 };
	struct iovec io = { zero, sizeof(zero) };
	struct msghdr m = { .msg_iov = &io, .msg_iovlen = 1,
			    .msg_control = cb.b, .msg_controllen = sizeof(cb.b) };
	uint32_t enc = ALG_OP_ENCRYPT, ivlen = 16;
	struct cmsghdr *c;
	int op = accept(tfm, NULL, NULL), ok;

	if (op < 0)
		return -1;
	memset(&cb, 0, sizeof(cb));
	c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(4);
	memcpy(CMSG_DATA(c), &enc, 4);
	c = CMSG_NXTHDR(&m, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_IV;
	c->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + 16);
	memcpy(CMSG_DATA(c), &ivlen, 4);
	memcpy(CMSG_DATA(c) + 4, iv, 16);
	ok = sendmsg(op, &m, 0) == 64 && read(op, out, 64) == 64;
	close(op);
	return ok ? 0 : -1;
}

/*
 * A DMDW blob @b (@n bytes) opened in userspace with the wrap key's
 * HChaCha20 subkey @sub (spec 2.1: ChaCha20-Poly1305 of RFC 8439, nonce
 * 0^4 || b[48..56], AD b[0..32]): the inner bytes at @pt, or -1 when the
 * tag does not verify (@sub is not of this blob's wrap key).
 */
static int open_dmdw(const uint8_t *b, size_t n, const uint8_t sub[32],
		     uint8_t *pt)
{
	static const uint8_t pad[16];
	size_t l = n - DMD_WRAP_SIZE(0), i;
	uint8_t iv[16] = { 0 }, pk[64], tag[16], lens[16];
	struct dmd_poly1305 p;

	memcpy(iv + 8, b + DMD_WRAP_OFF_NONCE + 16, 8);
	dmd_chacha20_block(pk, sub, iv);
	dmd_poly1305_init(&p, pk);
	dmd_poly1305_update(&p, b, DMD_WRAP_AD_SIZE);
	dmd_poly1305_update(&p, b + DMD_WRAP_HDR, l);
	dmd_poly1305_update(&p, pad, (16 - l % 16) % 16);
	dmd_store64_le(lens, DMD_WRAP_AD_SIZE);
	dmd_store64_le(lens + 8, l);
	dmd_poly1305_update(&p, lens, 16);
	dmd_poly1305_final(&p, tag);
	if (memcmp(tag, b + DMD_WRAP_HDR + l, 16))
		return -1;
	iv[0] = 1;
	dmd_chacha20_stream(pt, l, sub, iv);
	for (i = 0; i < l; i++)
		pt[i] ^= b[DMD_WRAP_HDR + i];
	return 0;
}

/*
 * HChaCha20(key, @nonce bytes 0..15), XChaCha20's subkey, from @ks, the
 * ChaCha20 block of that key with iv = those 16 bytes: the block is the
 * rounds' output plus the input state, whose words 0..3 (the constants)
 * and 12..15 (the iv) are known; HChaCha20 is words 0..3 and 12..15 of
 * the rounds' output.
 */
static void hchacha_from_block(const uint8_t ks[64], const uint8_t *nonce,
			       uint8_t sub[32])
{
	static const uint32_t sigma[4] = { 0x61707865, 0x3320646e,
					   0x79622d32, 0x6b206574 };
	int i;

	for (i = 0; i < 4; i++) {
		dmd_store32_le(sub + 4 * i, dmd_load32_le(ks + 4 * i) - sigma[i]);
		dmd_store32_le(sub + 16 + 4 * i, dmd_load32_le(ks + 48 + 4 * i) -
			       dmd_load32_le(nonce + 4 * i));
	}
}

/*
 * The red team's route: @tfm is chacha20 keyed by serial; a block of it
 * gives the subkey of each blob not yet opened, which opens it here.
 * @hits gets the key patterns in what opened.
 */
static int unwrap_all(int tfm, unsigned char *opened, long *hits)
{
	uint8_t ks[64], sub[32], pt[DMD_WRAP_INNER_MAX];
	const uint8_t *nonce;
	int j, got = 0;

	for (j = 0; j < nblobs; j++) {
		nonce = blobs[j] + DMD_WRAP_OFF_NONCE;
		if (opened[j] || sk_block(tfm, nonce, ks))
			continue;
		hchacha_from_block(ks, nonce, sub);
		if (open_dmdw(blobs[j], blob_len[j], sub, pt))
			continue;
		opened[j] = 1;
		got++;
		*hits += count(pt, blob_len[j] - DMD_WRAP_SIZE(0));
	}
	return got;
}

struct serialres {
	int binds, bound, tried, accepted, unwrapped;
	int err[256];	/* the setsockopt refusals by errno */
	long hits;
	unsigned char opened[MAXBLOBS];
};

/* Every key of @k on the tfm @fd (@t, algorithm @a): acceptances. */
static void try_keys(int fd, const char *t, int a, const struct skey *k,
		     int nk, struct serialres *r)
{
	int i;

	for (i = 0; i < nk; i++) {
		r->tried++;
		if (setsockopt(fd, SOL_ALG, ALG_SET_KEY_BY_KEY_SERIAL, &k[i].id,
			       sizeof(k[i].id))) {
			r->err[errno & 255]++;
			continue;
		}
		r->accepted++;
		printf("serial accepted %s %s (%s) key %s\n", t, algs[a],
		       canon[a], k[i].desc);
		if (!strcmp(t, "skcipher") && !strcmp(canon[a], "chacha20"))
			r->unwrapped += unwrap_all(fd, r->opened, &r->hits);
	}
}

static const char *errname(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "?";
}

static void serial_probe(void)
{
	static struct skey k[MAXKEYS];
	static struct serialres r;
	int nk = reach_keys(k), t, a, fd, e;

	read_algs();
	for (t = 0; t < NTYPES; t++)
		for (a = 0; a < nalgs; a++) {
			if (!(kinds[a] & (1u << t)))
				continue;
			r.binds++;
			fd = alg_bind(af_types[t], algs[a]);
			if (fd < 0)
				continue;
			r.bound++;
			try_keys(fd, af_types[t], a, k, nk, &r);
			close(fd);
		}
	printf("serial keys %d algs %d binds %d bound %d tried %d accepted %d\n",
	       nk, nalgs, r.binds, r.bound, r.tried, r.accepted);
	printf("serial refused");
	for (e = 0; e < 256; e++)
		if (r.err[e])
			printf(" %s %d", errname(e), r.err[e]);
	printf("\nunwrapped %d of %d blobs hits %ld\n", r.unwrapped, nblobs,
	       r.hits);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* @path on @fd (closed after), "-" nothing: the gateway's input. */
static void feed(int fd, const char *path)
{
	char buf[4096];
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : NULL;
	size_t n;

	while (f && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (write(fd, buf, n) != (ssize_t)n)
			break;
	if (f)
		fclose(f);
}

static int count_lines(FILE *fo, int want)
{
	char buf[4096], *p;
	int lines = 0;

	while ((want < 0 || lines < want) && fgets(buf, sizeof(buf), fo))
		for (p = buf; (p = strchr(p, '\n')); p++)
			lines++;
	return lines;
}

static int run(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	int in[2], out[2], a = 4, lines, want = atoi(argv[0]), st;
	long mem, files, kh, sh, bytes = 0;
	FILE *fo;
	pid_t pid;

	for (; a < argc && strcmp(argv[a], "--"); a++)
		if (add_hex(argv[a]))
			return 2;
	if (a + 1 >= argc || pipe(in) || pipe(out))
		return 2;
	pid = fork();
	if (!pid) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execvp(argv[a + 1], argv + a + 1);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	signal(SIGPIPE, SIG_IGN);
	feed(in[1], argv[2]);
	fo = fdopen(out[0], "r");
	/*
	 * A gateway that never gives the lines is searched after
	 * GIVE_UP_SECS: a guard against a hang, generous because a TCG guest
	 * on a loaded host can be many times slower than usual.
	 */
	sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART: fgets returns */
	alarm(GIVE_UP_SECS);
	lines = count_lines(fo, want);
	alarm(0);
	/* The gateway now waits for more input, every key it has in use. */
	mem = search_mem(pid, &bytes);
	files = search_dir(argv[1]);
	kh = read_key("diamond:wrap");
	kh += search_keys();
	sh = search_sockets(pid);
	serial_probe();
	printf("lines %d patterns %d mem-bytes %ld\n", lines, npat, bytes);
	printf("hits mem %ld files %ld keys %ld sockets %ld\n", mem, files, kh,
	       sh);
	fflush(stdout);
	/* Then what comes after (a forged epoch, the genuine one), and EOF. */
	feed(in[1], argv[3]);
	close(in[1]);
	alarm(GIVE_UP_SECS);
	lines = count_lines(fo, -1);
	alarm(0);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		st = -1;
	} else {
		st = WEXITSTATUS(st);
	}
	printf("after lines %d exit %d\n", lines, st);
	return 0;
}

static int plant(const char *id)
{
	static const char *names[] = { "diamond(chacha20,poly1305)",
				       "diamond(ctr(aes),ghash)" };
	uint8_t known[32], out[DLIB_DMDW_MAX], ref[DMD_REF_SIZE];
	struct dlib_ktfm *k;
	ssize_t n = -ENOKEY;
	unsigned int i;

	memset(known, 0x41, sizeof(known));
	if (syscall(SYS_add_key, "logon", DLIB_WRAP_DESC, known, sizeof(known),
		    -1 /* KEY_SPEC_THREAD_KEYRING */) < 0) {
		printf("plant add_key %s\n", strerror(errno));
		return 0;
	}
	for (i = 0; i < 2; i++) {
		dlib_key_ref(ref, (uint8_t)(2 - i), (uint32_t)strtoul(id, NULL, 10));
		n = dlib_ktfm_open_custody(names[i], ref, sizeof(ref), &k);
		if (n)
			continue;
		n = dlib_ktfm_export(k, out, sizeof(out));
		dlib_ktfm_close(k);
		break;
	}
	if (n < 0)
		printf("plant export %s\n", strerror((int)-n));
	else
		printf("plant export %zd\n", n);
	return 0;
}

/* The serial part of run alone, for a shell of the ingest's uid. */
static int serial(int argc, char **argv)
{
	int a;

	search_keys();
	for (a = 0; a < argc; a++)
		search_dir(argv[a]);
	serial_probe();
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "plant"))
		return plant(argv[2]);
	if (argc > 2 && !strcmp(argv[1], "keys"))
		return keys(argc - 2, argv + 2);
	if (argc > 7 && !strcmp(argv[1], "run"))
		return run(argc - 2, argv + 2);
	if (argc > 1 && !strcmp(argv[1], "serial"))
		return serial(argc - 2, argv + 2);
	fprintf(stderr, "usage: custody_probe keys FILE... | run N DIR FRAMES AFTER HEX... -- CMD... | serial DIR... | plant ID\n");
	return 2;
}
