// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * pkt-check: host-side checker for the packets of the packet-mode sensor
 * firmware (embedded/common/psender_main.c, spec section 14), built on
 * the portable core's packet parser and unit verifier. It reads the link
 * output of one or more boots of a device (one file per boot): length
 * bytes (0: no packet, the boot preamble) each followed by its packet; a
 * boot cut by a power loss may end inside a packet. It checks:
 *
 *   - every packet parses at width A and names the device's address;
 *   - within a boot, positions follow the sender's order: record 0 of an
 *     epoch first, anchored with e mod 2^32, then j + 1, to b;
 *   - no position (e, j) is sent twice over all boots: a key index is
 *     never reused, power loss or not (spec section 10);
 *   - each unit verifies with dmd_grid_open() under the key from --key
 *     (the state at the first epoch): exactly the tags whose records all
 *     arrived verify, exactly the records they cover are released;
 *   - each released record is the reading psender_main.c takes at its
 *     position (sensor_read(), REC_LEN bytes);
 *   - at most --max-lost epochs between the first and the last are
 *     never seen (each power loss may cost the epoch it reserved).
 *
 *   pkt-check --key BLOB --a A --addr ADDR --rec-len L [--max-lost N] FILE...
 *
 * Prints TAP 13; exit status 0 when every check passes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/chain.h>
#include <diamond/packet.h>
#include <diamond/stream.h>
#include <diamond/util.h>
#include "sensor.h"

/* psender_main.c's sample number of position (e, j). */
#define PKT_SAMPLE(e, j) ((uint32_t)(e) << 16 | (uint32_t)(j))

struct pkt {
	uint64_t e;
	uint32_t j;
	uint8_t first;		/* the first packet of its boot */
	uint8_t len;
	uint8_t b[DMD_PKT_MAX];
};

static struct pkt *pkts;
static size_t npkts, cap;
static unsigned int tests, failed;

static struct dmd_state key;
static unsigned int width;
static uint32_t address;
static size_t rec_len;

static void tap(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

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

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t got = 0, sz = 0;

	if (!f) {
		perror(path);
		exit(2);
	}
	do {
		sz = sz ? 2 * sz : 65536;
		buf = realloc(buf, sz);
		if (!buf)
			exit(2);
		got += fread(buf + got, 1, sz - got, f);
	} while (got == sz);
	fclose(f);
	*n = got;
	return buf;
}

static struct pkt *push(void)
{
	if (npkts == cap) {
		cap = cap ? 2 * cap : 1024;
		pkts = realloc(pkts, cap * sizeof(*pkts));
		if (!pkts)
			exit(2);
	}
	memset(&pkts[npkts], 0, sizeof(pkts[npkts]));
	return &pkts[npkts++];
}

/* Counters of the parse, over all boots. */
static unsigned int bad_parse, bad_order, cut, boots;

/*
 * The position of @p, the packet after (@e, @j) in its boot (@first: the
 * boot's first packet). 0 when it breaks the sender's order.
 */
static int place(const struct dmd_packet *p, int first, uint64_t *e,
		 uint32_t *j)
{
	if (first) {
		if (!p->anchored || p->jm)
			return 0;
		*e = key.epoch + (uint32_t)(p->anchor - (uint32_t)key.epoch);
		*j = 0;
		return 1;
	}
	if (++*j == key.b) {
		++*e;
		*j = 0;
	}
	if (p->jm != *j % 64 || (!*j && !p->anchored))
		return 0;
	return !p->anchored || p->anchor == (uint32_t)*e;
}

/* The packets of one boot's link output, in order. */
static void read_boot(const char *path)
{
	struct dmd_packet p;
	struct pkt *k;
	size_t n, off = 0, len;
	uint8_t *buf = slurp(path, &n);
	uint64_t e = 0;
	uint32_t j = 0;
	int first = 1;

	boots++;
	while (off < n) {
		len = buf[off++];
		if (!len)
			continue;
		if (off + len > n) {
			cut++;	/* a power loss cut it: never sent whole */
			break;
		}
		if (dmd_packet_parse(&p, buf + off, len, width) != DMD_OK ||
		    p.addr != address) {
			bad_parse++;
		} else if (!place(&p, first, &e, &j)) {
			bad_order++;
		} else {
			k = push();
			k->e = e;
			k->j = j;
			k->first = (uint8_t)first;
			k->len = (uint8_t)len;
			memcpy(k->b, buf + off, len);
			first = 0;
		}
		off += len;
	}
	free(buf);
}

static int by_position(const void *a, const void *b)
{
	const struct pkt *x = a, *y = b;

	if (x->e != y->e)
		return x->e < y->e ? -1 : 1;
	return x->j < y->j ? -1 : x->j > y->j;
}

/* R_{e,16u} from the key (the state at an epoch <= e). */
static void unit_key(uint64_t e, uint32_t u, uint8_t r[DMD_KEY_MAX])
{
	struct dmd_stream s;
	uint8_t k[DMD_KEY_MAX], hp[32];
	uint64_t x;
	uint32_t i;

	memcpy(k, key.key, sizeof(k));
	for (x = key.epoch; x <= e; x++)
		dmd_epoch_update(key.suite, k, k, r);
	for (i = 0; i < u * DMD_GRID_UNIT; i++) {
		dmd_slot_open(&s, key.suite, r, r, hp);
		dmd_stream_wipe(&s);
	}
	dmd_wipe(k, sizeof(k));
	dmd_wipe(hp, sizeof(hp));
}

/* The records tag @t covers, as a bitmap of r (spec 14.3). */
static uint16_t covers(unsigned int t)
{
	return t < 4 ? (uint16_t)(0xfu << (4 * t)) :
		       (uint16_t)(0x1111u << (t - 4));
}

static unsigned int units, released, wrong_verdict, wrong_reading;

/* The unit of pkts[@lo .. @hi), all at (e, u). */
static void check_unit(size_t lo, size_t hi)
{
	static uint8_t pt[DMD_GRID_UNIT][DMD_PKT_MAX_RECORD];
	uint8_t r[DMD_KEY_MAX], want[DMD_PKT_MAX_RECORD];
	struct dmd_grid_unit g;
	struct dmd_grid_verdict v = { 0, 0 };
	struct dmd_packet p;
	uint64_t e = pkts[lo].e;
	uint32_t u = pkts[lo].j / DMD_GRID_UNIT;
	uint16_t held = 0, rel = 0;
	uint8_t ver = 0;
	unsigned int t, rr;
	size_t i;

	memset(&g, 0, sizeof(g));
	for (i = lo; i < hi; i++) {
		dmd_packet_parse(&p, pkts[i].b, pkts[i].len, width);
		dmd_grid_unit_add(&g, &p);
		rr = pkts[i].j % DMD_GRID_UNIT;
		g.pt[rr] = pt[rr];
		held |= (uint16_t)(1u << rr);
	}
	for (t = 0; t < DMD_GRID_TAGS; t++)
		if ((held & covers(t)) == covers(t)) {
			ver |= (uint8_t)(1u << t);
			rel |= covers(t);
		}
	unit_key(e, u, r);
	dmd_grid_open(key.suite, r, e, u, &g, 0, &v, NULL);
	dmd_wipe(r, sizeof(r));
	units++;
	wrong_verdict += v.verified != ver || v.released != rel;
	for (i = lo; i < hi; i++) {
		rr = pkts[i].j % DMD_GRID_UNIT;
		if (!(v.released >> rr & 1))
			continue;
		released++;
		sensor_read(want, rec_len, key.device_id,
			    PKT_SAMPLE(e, pkts[i].j), pkts[i].first);
		wrong_reading += g.len[rr] != rec_len ||
				 memcmp(pt[rr], want, rec_len);
	}
}

static void check_all(long max_lost)
{
	size_t i, lo, twice = 0, epochs = 0;

	qsort(pkts, npkts, sizeof(*pkts), by_position);
	for (i = 1; i < npkts; i++)
		twice += !by_position(&pkts[i - 1], &pkts[i]);
	tap(!twice, "no position (e, j) sent twice: key indices never reused "
	    "(%zu repeated of %zu packets)", twice, npkts);
	for (lo = 0; lo < npkts; lo = i) {
		for (i = lo + 1; i < npkts && pkts[i].e == pkts[lo].e &&
		     pkts[i].j / DMD_GRID_UNIT == pkts[lo].j / DMD_GRID_UNIT;
		     i++)
			;
		if (!twice)
			check_unit(lo, i);
		epochs += !lo || pkts[lo].e != pkts[lo - 1].e;
	}
	tap(!twice && units && !wrong_verdict,
	    "each unit verifies: exactly the tags whose records arrived, "
	    "exactly their records released (%u units, %u records released, "
	    "%u wrong)", units, released, wrong_verdict);
	tap(!twice && released && !wrong_reading,
	    "each released record is the sensor's reading at its position "
	    "(%u wrong)", wrong_reading);
	if (max_lost >= 0 && npkts) {
		uint64_t span = pkts[npkts - 1].e - pkts[0].e + 1;

		tap(span - epochs <= (uint64_t)max_lost,
		    "epochs never seen between the first and the last: %llu "
		    "(at most %ld)", (unsigned long long)(span - epochs),
		    max_lost);
	}
}

static void load_key(const char *path)
{
	size_t n;
	uint8_t *b = slurp(path, &n);

	if (dmd_blob_parse(&key, b, n) != DMD_OK ||
	    dmd_packet_key_check(&key) != DMD_OK) {
		fprintf(stderr, "pkt-check: %s: not a packet-mode key\n", path);
		exit(2);
	}
	free(b);
}

int main(int argc, char **argv)
{
	long max_lost = -1;
	int i;

	for (i = 1; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
		if (!strcmp(argv[i], "--key"))
			load_key(argv[i + 1]);
		else if (!strcmp(argv[i], "--a"))
			width = (unsigned int)strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--addr"))
			address = (uint32_t)strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--rec-len"))
			rec_len = strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--max-lost"))
			max_lost = strtol(argv[i + 1], NULL, 0);
		else
			break;
	}
	if (i >= argc || !key.b || width < 1 || width > DMD_PKT_ADDR_MAX ||
	    rec_len < SENSOR_RECORD_MIN || rec_len > DMD_PKT_MAX_RECORD) {
		fprintf(stderr, "usage: pkt-check --key BLOB --a A --addr ADDR "
				"--rec-len L [--max-lost N] FILE...\n");
		return 2;
	}
	printf("TAP version 13\n");
	for (; i < argc; i++)
		read_boot(argv[i]);
	tap(npkts && !bad_parse, "every packet parses at A = %u and names "
	    "address %#lx (%zu packets in %u boots, %u cut by power loss, %u "
	    "bad)", width, (unsigned long)address, npkts, boots, cut,
	    bad_parse);
	tap(!bad_order, "each boot begins at record 0 of an epoch, anchored, "
	    "and goes on in order (%u out of order)", bad_order);
	check_all(max_lost);
	printf("1..%u\n", tests);
	return failed ? 1 : 0;
}
