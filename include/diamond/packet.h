/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The packet-radio framing and its 4x4 grid of row and column tags
 * (Documentation/spec.rst section 14): one record per packet, an A-byte
 * short address, a control byte, an epoch anchor on record 0, and 12-byte
 * tags riding in the packets of the last records they cover. Beside the
 * byte-stream frames of spec section 8 (frame.h), which stay as they are.
 */
#ifndef DIAMOND_PACKET_H
#define DIAMOND_PACKET_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/core.h>

/* A packet as parsed (spec 14.1); the pointers point into the packet. */
struct dmd_packet {
	uint32_t addr;
	uint32_t anchor;	/* e mod 2^32, when @anchored */
	const uint8_t *rec;	/* C_j, @len bytes */
	const uint8_t *tags;	/* @m tags of DMD_PKT_TAG_SIZE bytes */
	size_t len;
	uint8_t anchored;	/* N */
	uint8_t jm;		/* j mod 64 */
	uint8_t m;		/* tags carried: 0, 1 or 2 */
};

/*
 * Steps 1 and 2 of spec 14.5's order, from the packet alone: DMD_EFORMAT
 * for a packet shorter than its fields or with F = 1, DMD_ESIZE for a
 * record over DMD_PKT_MAX_RECORD. @a is the width the address was
 * provisioned with (1 .. 4).
 */
int dmd_packet_parse(struct dmd_packet *p, const uint8_t *pkt, size_t pl,
		     unsigned int a);
/*
 * The tags riding in the packet of the record at @r = j mod 16, in the
 * order they ride: their t into @t, their number returned.
 */
unsigned int dmd_packet_tags(unsigned int r, uint8_t t[2]);

/* A position (e, j), and the receiver's cursor of spec 14.5. */
struct dmd_pkt_pos {
	uint64_t epoch;
	uint32_t index;
};

struct dmd_pkt_cursor {
	uint64_t epoch;		/* e_c */
	uint64_t held_epoch;	/* with @held: newest anchored epoch held */
	uint32_t unit;		/* u_c, the first undecided unit */
	uint32_t b;
	uint32_t max_skip;
	uint8_t held;
};

/*
 * The candidate positions of @p (spec 14.5), in the order they are tried,
 * at most DMD_PKT_CANDIDATES. DMD_EFORMAT when no index below b has its
 * j mod 64; for an anchor, DMD_ESKIP past max_skip (an earlier epoch is
 * always past it) and DMD_EFULL past 2^64 - 3; DMD_EEXPIRED when no
 * position is left. Arithmetic on public values only: no key is used.
 */
int dmd_packet_candidates(const struct dmd_pkt_cursor *c,
			  const struct dmd_packet *p,
			  struct dmd_pkt_pos out[DMD_PKT_CANDIDATES],
			  unsigned int *n);

/*
 * DMD_OK if @st may be used in packet mode (spec 14.2): a valid state
 * with XOR aggregation, b a multiple of 16, no groups (a group-size field
 * of 0 or b). DMD_EKEY otherwise.
 */
int dmd_packet_key_check(const struct dmd_state *st);

/*
 * tau*_{u,t} for t = 0 .. 7 of unit @u of epoch @e, from @r = R_{e,16u}
 * (spec 14.3): one PRF call on the grid-trailer domain and eight
 * one-block hashes. Z_u is erased before the return; @tau is secret
 * until its tags are sent.
 */
void dmd_grid_taus(unsigned int suite, const uint8_t *r, uint64_t e,
		   uint32_t u, uint8_t tau[DMD_GRID_TAGS][DMD_TAG_SIZE]);

/*
 * The sender (spec 14.3): a sender of spec section 10 whose epochs hold
 * b records and close with no tag, plus the eight accumulators of its
 * open unit, each started at its tau* and XORed with the sigma of every
 * record it covers as it is sealed.
 */
struct dmd_psender {
	struct dmd_sender s;
	uint8_t acc[DMD_GRID_TAGS][DMD_TAG_SIZE];
	uint32_t addr;
	uint8_t a;
};

/*
 * @a bytes of address @addr (1 <= a <= 4, addr < 2^(8a); DMD_EINVAL
 * otherwise), the key checked by dmd_packet_key_check(), the window as
 * dmd_sender_init()'s.
 */
int dmd_psender_init(struct dmd_psender *ps, const struct dmd_state *st,
		     unsigned int a, uint32_t addr, uint8_t *window,
		     size_t window_size, size_t pre_len);
/*
 * Begin the next epoch, as dmd_sender_begin() (reserve before use). An
 * epoch still open is abandoned: its unsent tags and unused slots are
 * erased, and the new epoch's record 0 carries its anchor.
 */
int dmd_psender_begin(struct dmd_psender *ps, struct dmd_state *reserve);
/*
 * Seal the next record (@len <= DMD_PKT_MAX_RECORD, DMD_ESIZE otherwise)
 * into the packet @pkt of @pkt_size bytes, its length into *@pkt_len:
 * address, control byte, the anchor when @anchor or on record 0, C_j and
 * the tags it carries. DMD_EFULL once b records are sealed (begin the
 * next epoch), DMD_ESPACE when the packet does not fit @pkt_size.
 */
int dmd_psender_seal(struct dmd_psender *ps, const uint8_t *m, size_t len,
		     int anchor, uint8_t *pkt, size_t pkt_size,
		     size_t *pkt_len);
void dmd_psender_wipe(struct dmd_psender *ps);

/*
 * One unit as a receiver holds it: the record of each r that arrived
 * (@rec NULL: not held) and each tag t that arrived (@tag NULL: not held,
 * else DMD_PKT_TAG_SIZE bytes). @pt[r] receives @len[r] bytes for a held
 * record, and holds plaintext only if the record is released.
 */
struct dmd_grid_unit {
	const uint8_t *rec[DMD_GRID_UNIT];
	size_t len[DMD_GRID_UNIT];
	const uint8_t *tag[DMD_GRID_TAGS];
	uint8_t *pt[DMD_GRID_UNIT];
};

/* Put a parsed packet's record and tags at its place in @g (r = jm % 16). */
void dmd_grid_unit_add(struct dmd_grid_unit *g, const struct dmd_packet *p);

/* Bit t: tag t verified. Bit r: record r released by this call. */
struct dmd_grid_verdict {
	uint16_t released;
	uint8_t verified;
};

/*
 * Verify the unit @g at unit @u of epoch @e, @r being R_{e,16u} (spec
 * 14.5): each tag whose carrier and covered records are all held is
 * compared, truncated, in constant time; a record is released (its
 * plaintext left in @pt) when a verified tag covers it and bit r of
 * @before (released earlier) is clear; every other @pt is wiped. DMD_OK
 * when some tag verified, DMD_EBADMSG when none did (nothing released),
 * DMD_ESIZE for a record over DMD_PKT_MAX_RECORD (no key used). Keys,
 * pads and hashes are erased. @r_next, if not NULL, receives
 * R_{e,16u+16}.
 */
int dmd_grid_open(unsigned int suite, const uint8_t *r, uint64_t e,
		  uint32_t u, struct dmd_grid_unit *g, uint16_t before,
		  struct dmd_grid_verdict *v, uint8_t *r_next);

#endif
