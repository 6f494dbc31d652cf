// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libdiamond's packet receiver (spec section 14.5, diamond_prx_*) and its
 * host sender (diamond_psender_*), software backend:
 *
 *   vectors   vectors/packet.txt's sealed epochs: the host sender emits
 *             their packets byte for byte, and the receiver fed them
 *             releases exactly their records, each once
 *   streams   four epochs of b = 32 sealed by the host sender, then fed
 *             with losses (what is released is exactly what a model of
 *             the grid says: a record goes when a row or column tag whose
 *             carrier and records all arrived covers it), reordered within
 *             units, duplicated, replayed (nothing new), damaged and forged
 *             (nothing wrong released, at most 4 tries per packet), and
 *             across a restart from the state file (nothing twice)
 *   storage   a state that cannot be stored releases nothing
 *   window    a tag verified 16 units or more past the cursor moves the
 *             cursor to its unit, as diamond.ko moves its own
 *             (kernel-api.rst, "The cursor and the window")
 *
 *   test_packet VECTORS STATEDIR
 *
 * With PRX_KERNEL=1 in the environment every receiver uses the kernel
 * backend (diamond.ko's tag grid); without the module that is one loud
 * skip (check-packet-vm runs it in a VM with the module).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <diamond/libdiamond.h>
#include "tap.h"

#define MAXF 160
#define B 32
#define EPOCHS 4
#define NREC (B * EPOCHS)

static const char *statedir;
static char path[4096];

/* ---- a tiny reader of vectors/packet.txt ---- */

static char *fname[MAXF], *fval[MAXF];
static unsigned int nf;
static FILE *vf;

static int next_rec(void)
{
	static char line[4096];
	char *eq, *v, *e;
	size_t n;

	while (nf) {
		nf--;
		free(fname[nf]);
		free(fval[nf]);
	}
	while (fgets(line, sizeof(line), vf)) {
		n = strlen(line);
		while (n && line[n - 1] == '\n')
			line[--n] = 0;
		if (line[0] == '#')
			continue;
		if (!n) {
			if (nf)
				return 1;
			continue;
		}
		eq = strchr(line, '=');
		if (!eq || nf == MAXF)
			return -1;
		for (e = eq; e > line && e[-1] == ' '; e--)
			;
		*e = 0;
		for (v = eq + 1; *v == ' '; v++)
			;
		fname[nf] = strdup(line);
		fval[nf++] = strdup(v);
	}
	return nf ? 1 : 0;
}

static const char *get_nth(const char *name, unsigned int k)
{
	unsigned int i;

	for (i = 0; i < nf; i++)
		if (!strcmp(fname[i], name) && !k--)
			return fval[i];
	return NULL;
}

static size_t unhex(uint8_t *out, size_t cap, const char *s)
{
	size_t n = 0;
	unsigned int b;

	while (s[0] && s[1] && n < cap && sscanf(s, "%2x", &b) == 1) {
		out[n++] = (uint8_t)b;
		s += 2;
	}
	return n;
}

/* ---- what the receiver reports ---- */

struct got {
	unsigned int count[NREC];	/* releases per record of the stream */
	unsigned int lost[NREC];
	unsigned int wrong;		/* released bytes not as sealed */
	unsigned int outside;		/* released at no sealed position */
	unsigned int total;
};

static struct got got;
static uint8_t sealed[NREC][DIAMOND_PKT_MAX];	/* plaintexts by position */
static size_t sealed_len[NREC];
static uint64_t first_epoch;

static void on_record(void *arg, uint32_t id, uint64_t e, uint32_t j,
		      const uint8_t *data, size_t len)
{
	uint64_t k = (e - first_epoch) * B + j;

	(void)arg;
	(void)id;
	got.total++;
	if (e < first_epoch || k >= NREC || j >= B) {
		got.outside++;
		return;
	}
	got.count[k]++;
	if (len != sealed_len[k] || memcmp(data, sealed[k], len))
		got.wrong++;
}

static void on_lost(void *arg, uint32_t id, uint64_t e, uint32_t first,
		    uint32_t count)
{
	uint64_t k;
	uint32_t i;

	(void)arg;
	(void)id;
	if (getenv("PKT_DEBUG"))
		fprintf(stderr, "[lost e%llu %u+%u] ", (unsigned long long)(e - first_epoch), first, count);
	for (i = 0; i < count; i++) {
		k = (e - first_epoch) * B + first + i;
		if (e >= first_epoch && k < NREC)
			got.lost[k]++;
	}
}

static const struct diamond_prx_cbs cbs = { on_record, on_lost, NULL };

/* A fresh state directory holding @blob, with the address (@a, @addr). */
static struct diamond_store *fresh_store(const uint8_t *blob, size_t len,
					 unsigned int a, uint32_t addr)
{
	struct diamond_store *s;
	struct diamond_params p;
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", statedir);
	if (system(cmd) != 0)
		return NULL;
	if (diamond_store_open(&s, statedir, DIAMOND_STORE_CREATE) ||
	    diamond_blob_info(blob, len, &p))
		return NULL;
	first_epoch = p.epoch;
	if (diamond_store_create(s, blob, len) ||
	    diamond_radio_set(s, p.device_id, a, addr)) {
		diamond_store_close(s);
		return NULL;
	}
	return s;
}

static unsigned int prx_flags;	/* DIAMOND_PRX_KERNEL with PRX_KERNEL=1 */

static struct diamond_prx *receiver_cbs(struct diamond_store *s,
					const struct diamond_prx_cbs *c)
{
	struct diamond_prx *x;

	if (diamond_prx_new(&x, s, c, 0, prx_flags))
		return NULL;
	if (diamond_prx_add_all(x)) {
		diamond_prx_free(x);
		return NULL;
	}
	return x;
}

static struct diamond_prx *receiver(struct diamond_store *s)
{
	return receiver_cbs(s, &cbs);
}

/* ---- vectors ---- */

static uint8_t vpkt[64][DIAMOND_PKT_MAX];
static size_t vlen[64];

static int vec_sender(const uint8_t *key, size_t klen, unsigned int a,
		      uint32_t addr, unsigned int n)
{
	char blob[4200];
	uint8_t pkt[DIAMOND_PKT_MAX];
	struct diamond_psender *ps;
	const char *rec;
	unsigned int j;
	int fd, len, ok = 1;
	char *sp;

	snprintf(blob, sizeof(blob), "%s.blob", statedir);
	fd = open(blob, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, key, klen) != (ssize_t)klen)
		return 0;
	close(fd);
	if (diamond_psender_open(&ps, blob, a, addr))
		return 0;
	for (j = 0; j < n; j++) {
		rec = get_nth("rec", j);
		strtoul(rec, &sp, 10);
		/* Records anchored by choice: the host sender anchors record 0 only. */
		if (strtoul(sp, &sp, 10) && j)
			break;
		while (*sp == ' ')
			sp++;
		len = diamond_psender_seal(ps, sealed[j],
					   unhex(sealed[j], DIAMOND_PKT_MAX, sp), pkt);
		ok &= len == (int)vlen[j] && !memcmp(pkt, vpkt[j], vlen[j]);
	}
	diamond_psender_free(ps);
	return ok;
}

static void one_vector(void)
{
	uint8_t key[256];
	struct diamond_store *s;
	struct diamond_prx *x;
	const char *name = get_nth("name", 0), *v, *sp;
	unsigned int a = (unsigned int)strtoul(get_nth("a", 0), NULL, 10), j, n;
	uint32_t addr = (uint32_t)strtoul(get_nth("addr", 0), NULL, 16);
	size_t klen = unhex(key, sizeof(key), get_nth("key", 0));
	int ok = 1;

	for (n = 0; (v = get_nth("pkt", n)); n++) {
		vlen[n] = unhex(vpkt[n], DIAMOND_PKT_MAX, v);
		sp = strchr(strchr(get_nth("rec", n), ' ') + 1, ' ') + 1;
		sealed_len[n] = unhex(sealed[n], DIAMOND_PKT_MAX, sp);
	}
	tap_result(vec_sender(key, klen, a, addr, n),
		   "%s: the host sender emits the vector's packets", name);
	memset(&got, 0, sizeof(got));
	s = fresh_store(key, klen, a, addr);
	x = s ? receiver(s) : NULL;
	for (j = 0; x && j < n; j++)
		ok &= diamond_prx_feed(x, vpkt[j], vlen[j]) == 0;
	for (j = 0; j < n; j++)
		ok &= got.count[j] == 1;
	tap_result(x && ok && got.total == n && !got.wrong && !got.outside,
		   "%s: %u packets release their %u records, each once",
		   name, n, n);
	diamond_prx_free(x);
	diamond_store_close(s);
}

static void vectors(const char *file)
{
	const char *name;

	vf = fopen(file, "r");
	if (!vf) {
		tap_skip("no vectors file", "vectors");
		return;
	}
	while (next_rec() > 0) {
		name = get_nth("name", 0);
		if (name && name[0] == 'd' && (name[1] == '1' || name[1] == '2'))
			one_vector();
	}
	fclose(vf);
}

/* ---- streams from the host sender ---- */

static uint8_t spkt[NREC][DIAMOND_PKT_MAX];
static size_t slen[NREC];
static uint8_t skey[256];
static size_t sklen;
#define ADDR 0x2a
#define A 1

/* Seal EPOCHS epochs of b = 32 from the d1-a1-b32 key. */
static int make_stream(void)
{
	struct diamond_psender *ps;
	char blob[4200];
	unsigned int k, i;
	int fd, len;

	snprintf(blob, sizeof(blob), "%s.blob", statedir);
	fd = open(blob, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, skey, sklen) != (ssize_t)sklen)
		return 0;
	close(fd);
	if (diamond_psender_open(&ps, blob, A, ADDR))
		return 0;
	for (k = 0; k < NREC; k++) {
		sealed_len[k] = 1 + k % 20;
		for (i = 0; i < sealed_len[k]; i++)
			sealed[k][i] = (uint8_t)(k * 7 + i);
		len = diamond_psender_seal(ps, sealed[k], sealed_len[k], spkt[k]);
		if (len <= 0)
			break;
		slen[k] = (size_t)len;
	}
	diamond_psender_free(ps);
	return k == NREC;
}

/* What the grid releases of a unit whose records in @p arrived. */
static uint16_t model_unit(uint16_t p)
{
	uint16_t rel = 0, cov;
	unsigned int t, car;

	for (t = 0; t < 8; t++) {
		cov = t < 4 ? (uint16_t)(0xfu << (4 * t)) :
			      (uint16_t)(0x1111u << (t - 4));
		car = t < 4 ? 4 * t + 3 : t + 8;
		if ((p >> car & 1) && (p & cov) == cov)
			rel |= cov;
	}
	return rel;
}

/* Feed stream packets in @order (@n of them) to a fresh receiver. */
static struct diamond_prx *run(struct diamond_store **sp, const unsigned int *order,
			       unsigned int n, unsigned int *maxtries)
{
	struct diamond_prx_stats st0, st1;
	struct diamond_prx *x;
	unsigned int i;

	memset(&got, 0, sizeof(got));
	*sp = fresh_store(skey, sklen, A, ADDR);
	x = *sp ? receiver(*sp) : NULL;
	if (maxtries)
		*maxtries = 0;
	for (i = 0; x && i < n; i++) {
		diamond_prx_stats(x, &st0);
		diamond_prx_feed(x, spkt[order[i]], slen[order[i]]);
		diamond_prx_stats(x, &st1);
		if (maxtries && st1.tries - st0.tries > *maxtries)
			*maxtries = (unsigned int)(st1.tries - st0.tries);
	}
	return x;
}

static unsigned int order[4 * NREC];

/* In order with the records of @drop (bit k) lost; release = the model. */
static void loss(const char *what, const uint8_t *drop)
{
	struct diamond_store *s;
	struct diamond_prx *x;
	unsigned int n = 0, k, e, u, r, bad = 0, undecided = 0;
	uint16_t p, rel;

	for (k = 0; k < NREC; k++)
		if (!drop[k])
			order[n++] = k;
	x = run(&s, order, n, NULL);
	for (e = 0; e < EPOCHS; e++)
		for (u = 0; u < B / 16; u++) {
			for (p = 0, r = 0; r < 16; r++)
				p |= (uint16_t)(!drop[e * B + u * 16 + r] << r);
			rel = model_unit(p);
			for (r = 0; r < 16; r++) {
				k = e * B + u * 16 + r;
				bad += got.count[k] != (rel >> r & 1);
				bad += got.lost[k] > 1 || (got.lost[k] && got.count[k]);
				/* Epochs before the last are decided. */
				undecided += e < EPOCHS - 1 &&
					     !got.lost[k] && !got.count[k];
			}
		}
	if (getenv("PKT_DEBUG"))
		for (k = 0; k < NREC; k++)
			fprintf(stderr, "%u:%u%s%s ", k, got.count[k],
				got.lost[k] ? "L" : "", drop[k] ? "D" : "");
	tap_result(x && !bad && !undecided && !got.wrong && !got.outside,
		   "loss, %s: released exactly the model's records, the rest of "
		   "every decided unit reported lost once (%u released)",
		   what, got.total);
	diamond_prx_free(x);
	diamond_store_close(s);
}

static void losses(void)
{
	static uint8_t drop[NREC];
	unsigned int k, seed = 12345;

	memset(drop, 0, sizeof(drop));
	loss("none", drop);
	drop[5] = 1;
	loss("record 5 of epoch 0", drop);
	drop[10] = drop[B + 15] = drop[2 * B + 3] = 1;
	loss("records 5, 10, a unit's last (two tags) and a row's carrier",
	     drop);
	memset(drop, 0, sizeof(drop));
	for (k = 0; k < NREC; k++) {
		seed = seed * 1103515245u + 12345u;
		drop[k] = (seed >> 16) % 10 == 0;	/* about 10% */
	}
	loss("10% pseudo-random (seed 12345)", drop);
	memset(drop, 0, sizeof(drop));
	for (k = B; k < B + 20; k++)
		drop[k] = 1;
	loss("a burst of 20 packets across a unit", drop);
}

static int all_once(void)
{
	unsigned int k;

	int ok = 1;

	for (k = 0; k < NREC; k++)
		if (got.count[k] != 1) {
			if (getenv("PKT_DEBUG"))
				fprintf(stderr, "%u:%u%s ", k, got.count[k],
					got.lost[k] ? "L" : "");
			ok = 0;
		}
	if (getenv("PKT_DEBUG"))
		fprintf(stderr, "wrong %u outside %u\n", got.wrong, got.outside);
	return ok && !got.wrong && !got.outside;
}

static void reorder_dup_replay(void)
{
	struct diamond_store *s;
	struct diamond_prx *x;
	struct diamond_prx_stats st;
	unsigned int k, i, n, tries, seed = 7, t;

	for (k = 0; k < NREC; k++)
		order[k] = k;
	for (k = 0; k < NREC; k += 16)	/* shuffle within each unit */
		for (i = 15; i > 0; i--) {
			seed = seed * 1103515245u + 12345u;
			n = (seed >> 16) % (i + 1);
			t = order[k + i];
			order[k + i] = order[k + n];
			order[k + n] = t;
		}
	x = run(&s, order, NREC, &tries);
	tap_result(x && all_once(), "reordered within units: every record once");
	diamond_prx_free(x);
	diamond_store_close(s);

	for (k = 0; k < NREC; k++)
		order[2 * k] = order[2 * k + 1] = k;
	x = run(&s, order, 2 * NREC, &tries);
	diamond_prx_stats(x, &st);
	if (getenv("PKT_DEBUG"))
		fprintf(stderr, "unheld %llu tries %llu failed %llu\n",
			(unsigned long long)st.unheld, (unsigned long long)st.tries,
			(unsigned long long)st.failed);
	tap_result(x && all_once() && st.duplicates >= NREC,
		   "every packet twice: every record once, %llu duplicates",
		   (unsigned long long)st.duplicates);
	diamond_prx_free(x);
	diamond_store_close(s);

	for (k = 0; k < 2 * NREC; k++)
		order[k] = k % NREC;
	x = run(&s, order, 2 * NREC, &tries);
	tap_result(x && all_once() && tries <= 4,
		   "the stream replayed after itself: nothing released twice, "
		   "at most %u tries per packet", tries);
	diamond_prx_free(x);
	diamond_store_close(s);
}

/* Damaged copies before the genuine ones, then forged packets. */
static void forged(void)
{
	struct diamond_prx_stats st0, st1;
	struct diamond_store *s;
	struct diamond_prx *x;
	uint8_t bad[DIAMOND_PKT_MAX];
	unsigned int k, maxt = 0, seed = 99, i;
	int ok = 1;

	memset(&got, 0, sizeof(got));
	s = fresh_store(skey, sklen, A, ADDR);
	x = s ? receiver(s) : NULL;
	for (k = 0; x && k < NREC; k++) {
		memcpy(bad, spkt[k], slen[k]);
		seed = seed * 1103515245u + 12345u;
		/* Flip a byte past the address and control byte. */
		i = A + 1 + (seed >> 16) % (unsigned int)(slen[k] - A - 1);
		bad[i] ^= 0x5a;
		diamond_prx_stats(x, &st0);
		diamond_prx_feed(x, bad, slen[k]);
		diamond_prx_feed(x, spkt[k], slen[k]);
		diamond_prx_stats(x, &st1);
		if (st1.tries - st0.tries > 8)
			ok = 0;	/* 4 per packet, two packets */
	}
	tap_result(x && ok && all_once(),
		   "a damaged copy before every packet: every genuine record "
		   "once, nothing damaged released, at most 4 tries per packet");
	diamond_prx_free(x);
	diamond_store_close(s);

	memset(&got, 0, sizeof(got));
	s = fresh_store(skey, sklen, A, ADDR);
	x = s ? receiver(s) : NULL;
	for (k = 0; x && k < 4000; k++) {
		size_t len = 2 + k % 60;

		bad[0] = ADDR;
		for (i = 1; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			bad[i] = (uint8_t)(seed >> 16);
		}
		bad[1] &= 0x7f;	/* F = 0: they parse */
		bad[1] |= 0x0f;	/* r = 15: a carrier of two tags */
		bad[1] &= 0xbf;	/* no anchor */
		diamond_prx_stats(x, &st0);
		diamond_prx_feed(x, bad, len);
		diamond_prx_stats(x, &st1);
		if (st1.tries - st0.tries > maxt)
			maxt = (unsigned int)(st1.tries - st0.tries);
	}
	tap_result(x && got.total == 0 && maxt <= 4,
		   "4000 forged packets: nothing released, at most %u tries "
		   "per packet", maxt);
	diamond_prx_free(x);
	diamond_store_close(s);
}

/* Half the stream, a restart from the state file, then all of it again. */
static void restart(void)
{
	struct diamond_store *s;
	struct diamond_prx *x;
	unsigned int k, half = NREC / 2 + 5;

	for (k = 0; k < NREC; k++)
		order[k] = k;
	x = run(&s, order, half, NULL);
	diamond_prx_free(x);
	x = receiver(s);
	for (k = 0; x && k < NREC; k++)
		diamond_prx_feed(x, spkt[k], slen[k]);
	tap_result(x && all_once(),
		   "restart after %u packets, then all %u again: every record "
		   "once across the two runs", half, NREC);
	diamond_prx_free(x);
	diamond_store_close(s);
}

/*
 * The state cannot be stored (its file is a directory, which rename()
 * does not replace, even for root): nothing may be released. Then it can,
 * and the same packets release everything once.
 */
static void storage(void)
{
	struct diamond_store *s;
	struct diamond_prx *x;
	struct diamond_params p;
	uint8_t blob[DIAMOND_BLOB_MAX];
	char keep[4200];
	unsigned int k;
	size_t len;
	int failed = 0;

	diamond_blob_info(skey, sklen, &p);
	memset(&got, 0, sizeof(got));
	s = fresh_store(skey, sklen, A, ADDR);
	x = s ? receiver(s) : NULL;
	diamond_store_path(s, p.device_id, path, sizeof(path));
	snprintf(keep, sizeof(keep), "%s/blocker", path);
	if (!x || diamond_store_load(s, p.device_id, blob, &len) ||
	    unlink(path) || mkdir(path, 0700) || mkdir(keep, 0700)) {
		tap_result(0, "storage: set up");
		return;
	}
	for (k = 0; k < B; k++)
		failed += diamond_prx_feed(x, spkt[k], slen[k]) != 0;
	tap_result(got.total == 0 && failed > 0,
		   "a state that cannot be stored: nothing released (%d feeds "
		   "failed)", failed);
	rmdir(keep);
	rmdir(path);
	diamond_prx_free(x);
	if (diamond_store_create(s, blob, len)) {
		tap_result(0, "storage: restore");
		return;
	}
	x = receiver(s);
	for (k = 0; x && k < NREC; k++)
		diamond_prx_feed(x, spkt[k], slen[k]);
	tap_result(x && all_once(), "stored again: every record once");
	diamond_prx_free(x);
	diamond_store_close(s);
}

/*
 * Half the stream, a restart, then only the rest (the first half was
 * acknowledged): with the spool, the packets of the unit half received
 * are taken up and every record comes once; without it (@spool 0) the
 * records of that unit are lost. 1 when every record came once.
 */
static int resume(int spool, int *taken)
{
	struct diamond_store *s;
	struct diamond_prx *x;
	unsigned int k, half = NREC / 2 + 5;

	for (k = 0; k < NREC; k++)
		order[k] = k;
	x = run(&s, order, 0, NULL);
	if (spool && x)
		diamond_prx_spool(x, statedir);
	for (k = 0; x && k < half; k++)
		diamond_prx_feed(x, spkt[k], slen[k]);
	if (spool && x && diamond_prx_sync(x))
		return 0;
	diamond_prx_free(x);
	x = receiver(s);
	*taken = spool && x ? diamond_prx_spool(x, statedir) : 0;
	for (k = half; x && k < NREC; k++)
		diamond_prx_feed(x, spkt[k], slen[k]);
	k = x && all_once();
	diamond_prx_free(x);
	diamond_store_close(s);
	return (int)k;
}

static void spool(void)
{
	int taken, without = resume(0, &taken), with = resume(1, &taken);

	tap_result(!without && with && taken > 0,
		   "the spool: a restart after %u packets, then only the rest: "
		   "every record once (%d packets taken up; without it, not)",
		   NREC / 2 + 5, taken);
}

/*
 * A fenced directory taken by a newer holder halfway: from then on the
 * receiver saves and spools nothing and releases nothing more (-ESTALE),
 * and the new holder's receiver releases the rest, each record once.
 */
static void fenced(void)
{
	struct diamond_fence *f1 = NULL, *f2 = NULL;
	struct diamond_store *s;
	struct diamond_prx *x;
	unsigned int k, half = NREC / 2, before, stale = 0;

	for (k = 0; k < NREC; k++)
		order[k] = k;
	x = run(&s, order, 0, NULL);
	if (!x || diamond_fence_open(&f1, statedir) ||
	    diamond_fence_take(f1, 1, "one") || diamond_prx_set_fence(x, f1) ||
	    diamond_prx_spool(x, statedir) < 0) {
		tap_result(0, "fence: set up");
		return;
	}
	for (k = 0; k < half; k++)
		diamond_prx_feed(x, spkt[k], slen[k]);
	if (diamond_fence_open(&f2, statedir) || diamond_fence_take(f2, 2, "two")) {
		tap_result(0, "fence: the newer holder");
		return;
	}
	before = got.total;
	for (k = half; k < NREC; k++)
		stale += diamond_prx_feed(x, spkt[k], slen[k]) == -ESTALE;
	stale += diamond_prx_sync(x) == -ESTALE;
	tap_result(got.total == before && stale > 1 && diamond_fence_stale(f1) == 2,
		   "fence: once a newer holder took the directory, nothing more "
		   "released, saved or spooled (%u refusals)", stale);
	diamond_prx_free(x);
	x = receiver(s);
	if (x)
		diamond_prx_set_fence(x, f2);
	if (x)
		diamond_prx_spool(x, statedir);
	for (k = half; x && k < NREC; k++)
		diamond_prx_feed(x, spkt[k], slen[k]);
	tap_result(x && all_once(), "fence: the new holder releases the rest, "
		   "every record once");
	diamond_prx_free(x);
	diamond_store_close(s);
	diamond_fence_close(f1);
	diamond_fence_close(f2);
}

/* ---- the stage (diamond_prx_set_stage()) ---- */

static unsigned int stage_calls, stage_fail_at;
static struct got staged;	/* what the last stage that held was given */

/* Fails at call stage_fail_at (0: never), as a crash there would. */
static int stage(void *arg)
{
	(void)arg;
	if (++stage_calls == stage_fail_at)
		return -EIO;
	staged = got;
	return 0;
}

/*
 * A stage that fails at call @at: the records and losses handed out since
 * the last stage that held must come again from a receiver restarted on
 * the same state, and nothing may vanish. 1 if so.
 */
static int stage_crash(unsigned int at, unsigned int n)
{
	struct got pend = { 0 };
	struct diamond_store *s;
	struct diamond_prx *x;
	unsigned int i, k, again = 1, failed = 0;

	memset(&got, 0, sizeof(got));
	memset(&staged, 0, sizeof(staged));
	stage_calls = 0;
	stage_fail_at = at;
	s = fresh_store(skey, sklen, A, ADDR);
	x = s ? receiver(s) : NULL;
	if (!x || diamond_prx_set_stage(x, stage, NULL))
		return 0;
	for (i = 0; i < n && !failed; i++)
		failed = diamond_prx_feed(x, spkt[order[i]], slen[order[i]]) == -EIO;
	diamond_prx_free(x);		/* the crash: nothing more saved */
	for (k = 0; k < NREC; k++) {
		pend.count[k] = got.count[k] - staged.count[k];
		pend.lost[k] = got.lost[k] - staged.lost[k];
	}
	stage_fail_at = 0;
	x = receiver(s);
	if (x)
		diamond_prx_set_stage(x, stage, NULL);
	for (i = 0; x && i < n; i++)
		diamond_prx_feed(x, spkt[order[i]], slen[order[i]]);
	for (k = 0; k < NREC; k++)
		again &= (got.count[k] + got.lost[k] >= 1) &&
			 (!pend.count[k] || got.count[k] > pend.count[k] ||
			  got.lost[k]) &&
			 (!pend.lost[k] || got.lost[k] > pend.lost[k] ||
			  got.count[k]);
	diamond_prx_free(x);
	diamond_store_close(s);
	return x && (failed || !at) && again && !got.wrong && !got.outside;
}

/*
 * With a stage, records go out before the state that passes them is
 * saved: a crash at any stage call (a failing stage stands in for it)
 * gives them, and the losses reported, again; never loses them.
 */
static void stages(void)
{
	unsigned int k, n = 0, at, calls, bad = 0;

	for (k = 0; k < NREC; k++)	/* record 16 (r = 0) never arrives */
		if (k != 16 && k != 21)
			order[n++] = k;
	if (!stage_crash(0, n)) {
		tap_result(0, "a stage that always holds");
		return;
	}
	calls = stage_calls;
	for (at = 1; at <= calls; at++)
		bad += !stage_crash(at, n);
	tap_result(calls > 0 && bad == 0,
		   "a stage failing at each of its %u calls in turn: what it "
		   "was given comes again after a restart, nothing lost (%u bad)",
		   calls, bad);
}

/*
 * kernel-api.rst: a tag verified 16 units or more past diamond.ko's cursor
 * moves the cursor to that unit, deciding every unit before it. The
 * receiver's cursor does the same whichever backend verifies, so both
 * release the same records. Epochs 0..8 of b = 32 (two units each) from
 * the stream's key; fed: record 0 of epoch 8 (anchored: epoch 8 is held),
 * then unit 1 of epoch 8, 17 units past the cursor (0, 0): the cursor
 * moves to (8, 1), not (8, 0) (and past it, all 16 released), and record 0
 * is reported lost; records 1..15 of epoch 8 arriving after it release
 * nothing (the old rule, "to the start of a later epoch that verified",
 * kept unit 0 of epoch 8 open and released them).
 */
#define WIN_EPOCHS 9
static uint8_t wpkt[B][DIAMOND_PKT_MAX];
static size_t wlen[B];
static unsigned int win_released, win_unit1, win_lost_e8_r0;

static void win_record(void *arg, uint32_t id, uint64_t e, uint32_t j,
		       const uint8_t *data, size_t len)
{
	(void)arg; (void)id; (void)data; (void)len;
	win_released++;
	win_unit1 += e == first_epoch + 8 && j >= 16 && j < 32;
}

static void win_lost(void *arg, uint32_t id, uint64_t e, uint32_t first,
		     uint32_t count)
{
	(void)arg; (void)id;
	win_lost_e8_r0 += e == first_epoch + 8 && first <= 0 && count >= 1;
}

static void window(void)
{
	static const struct diamond_prx_cbs wcbs = { win_record, win_lost, NULL };
	struct diamond_psender *ps;
	struct diamond_params p;
	struct diamond_store *s;
	struct diamond_prx *x;
	uint8_t pkt[DIAMOND_PKT_MAX], m = 0;
	char blob[4200];
	unsigned int k;
	uint64_t e = 0;
	uint32_t u = 0;
	int fd, len = 0;

	snprintf(blob, sizeof(blob), "%s.wblob", statedir);
	fd = open(blob, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, skey, sklen) != (ssize_t)sklen ||
	    close(fd) || diamond_psender_open(&ps, blob, A, ADDR)) {
		tap_result(0, "window: seal");
		return;
	}
	for (k = 0; k < WIN_EPOCHS * B; k++) {
		len = diamond_psender_seal(ps, &m, 1, pkt);
		if (len <= 0)
			break;
		if (k >= 8 * B) {
			memcpy(wpkt[k - 8 * B], pkt, (size_t)len);
			wlen[k - 8 * B] = (size_t)len;
		}
	}
	diamond_psender_free(ps);
	s = fresh_store(skey, sklen, A, ADDR);
	x = s && len > 0 ? receiver_cbs(s, &wcbs) : NULL;
	if (!x) {
		tap_result(0, "window: set up");
		diamond_store_close(s);
		return;
	}
	diamond_prx_feed(x, wpkt[0], wlen[0]);
	for (k = 16; k < 32; k++)
		diamond_prx_feed(x, wpkt[k], wlen[k]);
	diamond_blob_info(skey, sklen, &p);
	diamond_prx_cursor(x, p.device_id, &e, &u);
	tap_result(win_released == 16 && win_unit1 == 16 &&
		   e == first_epoch + 9 && u == 0 && win_lost_e8_r0 == 1,
		   "window: unit 1 of epoch 8, 17 units past the cursor, "
		   "releases its 16 records and moves the cursor to it, then "
		   "past it (%llu, %u); record 0 reported lost",
		   (unsigned long long)(e - first_epoch), (unsigned int)u);
	for (k = 1; k < 16; k++)
		diamond_prx_feed(x, wpkt[k], wlen[k]);
	tap_result(win_released == 16,
		   "window: records 1..15 of epoch 8 arriving after it release "
		   "nothing (%u released in all)", win_released);
	diamond_prx_free(x);
	diamond_store_close(s);
}

/* PRX_KERNEL=1: the kernel backend, if this machine has diamond.ko. */
static int pick_backend(void)
{
	char msg[512];

	if (!getenv("PRX_KERNEL") || strcmp(getenv("PRX_KERNEL"), "1"))
		return 1;
	if (diamond_kernel_probe(msg, sizeof(msg))) {
		tap_skip(msg, "the packet receiver through diamond.ko");
		return 0;
	}
	prx_flags = DIAMOND_PRX_KERNEL;
	printf("# backend: kernel (diamond.ko's tag grid)\n");
	return 1;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: test_packet VECTORS STATEDIR\n");
		return 2;
	}
	statedir = argv[2];
	tap_header();
	if (!pick_backend()) {
		tap_trailing_plan();
		return tap_finish();
	}
	vectors(argv[1]);
	vf = fopen(argv[1], "r");
	while (vf && next_rec() > 0)
		if (!strcmp(get_nth("name", 0), "d1-a1-b32")) {
			sklen = unhex(skey, sizeof(skey), get_nth("key", 0));
			break;
		}
	if (vf)
		fclose(vf);
	if (!sklen || !make_stream()) {
		tap_result(0, "seal the test stream (d1-a1-b32's key)");
		tap_trailing_plan();
		return tap_finish();
	}
	losses();
	reorder_dup_replay();
	forged();
	restart();
	storage();
	stages();
	spool();
	fenced();
	window();
	tap_trailing_plan();
	return tap_finish();
}
