/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmd_floor: the instructions the kernel's own primitives need for the
 * work one Diamond epoch mandates (Documentation/spec.rst sections 3-5),
 * each primitive reached by one of the ways the kernel offers (a
 * "variant"); floor_main.c walks the epoch over every pair of variants.
 */
#ifndef DMD_FLOOR_H
#define DMD_FLOOR_H

#include <linux/types.h>

/* The IV domains of G (spec section 1). */
#define FLOOR_DOM_RECORD	0
#define FLOOR_DOM_EPOCH		1

/* The longest G output the walk asks for: O + one 16-byte record. */
#define FLOOR_Y_MAX		96

/*
 * A way to compute G(key, IV_domain)[0:len] (spec section 1) into @dst.
 * @key may lie inside @dst: every variant reads it before writing.
 */
struct floor_prf {
	const char *name;
	int (*init)(struct floor_prf *p);
	void (*exit)(struct floor_prf *p);
	int (*gen)(struct floor_prf *p, const u8 *key, u8 domain, u8 *dst,
		   unsigned int len);
	void *priv;
	char driver[64];	/* what the crypto API bound, if anything */
};

/*
 * A way to compute a slot's tag (spec sections 4 and 5) under the
 * one-time key @hp = H || P: suite 1 GHASH_H(@hb || pad16(@data)) xor P,
 * suite 2 Poly1305_{H || P}(@hb || @data), @hb NULL for a record.
 */
struct floor_mac {
	const char *name;
	int (*init)(struct floor_mac *m);
	void (*exit)(struct floor_mac *m);
	int (*tag)(struct floor_mac *m, const u8 *hp, const u8 *hb,
		   const u8 *data, unsigned int len, u8 *tag);
	void *priv;
	char driver[64];
};

/* One suite: its state size k and the variants this kernel has. */
struct floor_suite {
	unsigned int k;
	struct floor_prf **prf;		/* NULL-terminated */
	struct floor_mac **mac;		/* NULL-terminated */
};

extern struct floor_suite floor_suite1, floor_suite2;

/* The most runs per figure (the parameter reps). */
#define FLOOR_REPS_MAX	32

/*
 * The parameter nh (floor_nh.c): one record's hash at 256 B to 4 KiB,
 * Poly1305 against the kernel's nhpoly1305, into @buf; its length or
 * -errno.
 */
int floor_nh_get(char *buf, unsigned int reps);
/*
 * Its VMAC lines (floor_vmac.c): the kernel's vmac64(aes) per record
 * beside Poly1305 at 16 B to 4 KiB, appended to @buf at @len; the new
 * length.
 */
int floor_vmac_lines(char *buf, int len, unsigned int reps);

#endif /* DMD_FLOOR_H */
