/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Constants of the Diamond wire formats (Documentation/spec.rst), shared by
 * the kernel module, the portable core, the firmware and the userspace
 * library. Values only: no code, no types beyond the preprocessor.
 */
#ifndef DIAMOND_SPEC_H
#define DIAMOND_SPEC_H

/* Suites (spec section 1). */
#define DMD_SUITE_AES_GHASH	1	/* Diamond1: AES-128-CTR + GHASH */
#define DMD_SUITE_CHACHA_POLY	2	/* Diamond2: ChaCha20 + Poly1305 */

/* Aggregation modes (spec section 5). */
#define DMD_AGG_XOR		0
#define DMD_AGG_ADD		1	/* addition mod 2^128, little-endian */
#define DMD_AGG_HASH		2	/* SHA-256 accumulator */

#define DMD_TAG_SIZE		16
#define DMD_IV_SIZE		8	/* AEAD IV: le64 epoch */
#define DMD_KEY1_SIZE		16	/* suite 1 state size k */
#define DMD_KEY2_SIZE		32	/* suite 2 state size k */
#define DMD_KEY_MAX		32
#define DMD_MAX_RECORD		4096
#define DMD_MAX_AD		1024
#define DMD_MAX_B		65535
/* Most epochs a receiver skips ahead of its state by default (section 9). */
#define DMD_DEFAULT_MAX_SKIP	4096
/*
 * The last epoch a sender begins and a receiver opens, 2^64 - 3 (section 6):
 * beginning epoch e stores the blob for e + 1, which must be below 2^64 - 1.
 */
#define DMD_EPOCH_LAST		0xfffffffffffffffdULL
/*
 * The largest epoch body a gateway opens and a sender produces: the
 * length-prefixed ciphertext records and the tag (section 7), AD not
 * counted. b = 65535 empty records need 131086 bytes, so every b fits;
 * a sender closes an epoch early when its next record might not.
 */
#define DMD_MAX_BODY		1048576
#define DMD_ROOT_SIZE		32
/* The fresh value of each provisioning (spec section 2), from getrandom. */
#define DMD_PROV_NONCE_SIZE	16

/*
 * Key blob (spec section 2). Version 1 is also the kernel's setkey format;
 * version 2 is what senders and gateways store (generation, group size,
 * CRC-32).
 */
#define DMD_BLOB_MAGIC		"DMND"
#define DMD_BLOB_VERSION	1
#define DMD_BLOB_HDR		24
#define DMD_BLOB_SIZE(k)	(DMD_BLOB_HDR + (k))
#define DMD_BLOB_MAX		DMD_BLOB_SIZE(DMD_KEY_MAX)
#define DMD_BLOB2_VERSION	2
#define DMD_BLOB2_OFF_GEN	24	/* le16 provisioning generation */
#define DMD_BLOB2_OFF_GROUP	26	/* le16 group size g, 0: one per epoch */
#define DMD_BLOB2_OFF_KEY	28
#define DMD_BLOB2_CRC_SIZE	4	/* le32 CRC-32 of everything before it */
#define DMD_BLOB2_SIZE(k)	(DMD_BLOB2_OFF_KEY + (k) + DMD_BLOB2_CRC_SIZE)
#define DMD_BLOB2_MAX		DMD_BLOB2_SIZE(DMD_KEY_MAX)
/* Generation G provisions its device at epoch G * 2^32 (spec section 2). */
#define DMD_GEN_SHIFT		32
#define DMD_GEN_MAX		65535
#define DMD_BLOB_OFF_VERSION	4
#define DMD_BLOB_OFF_SUITE	5
#define DMD_BLOB_OFF_AGG	6
#define DMD_BLOB_OFF_FLAGS	7	/* spec section 2: bit 0 open-only */
/*
 * Byte 7's flags (spec section 2). Open-only: the key only opens, a sender
 * refuses it (DMD_EKEY) and the kernel refuses encrypt on it (-EPERM). Any
 * other bit set is a malformed blob.
 */
#define DMD_BLOB_FLAG_OPEN_ONLY	0x01
#define DMD_BLOB_FLAGS_KNOWN	DMD_BLOB_FLAG_OPEN_ONLY
#define DMD_BLOB_OFF_B		8
#define DMD_BLOB_OFF_DEVICE	12
#define DMD_BLOB_OFF_EPOCH	16
#define DMD_BLOB_OFF_KEY	24

/*
 * Wrapped state "DMDW" version 1 (spec section "Wrapped states"): a
 * version 2 blob (open-only, optionally followed by its group cursor
 * le64(e - 1) || le32(c) || R) sealed with XChaCha20-Poly1305 under the
 * kernel's wrap key, the 32-byte key "diamond:wrap" of diamond.ko's own key
 * type "diamond" (DMD_KEY_TYPE). diamond.ko's
 * setkey takes it, and getsockopt(SOL_ALG, DIAMOND_ALG_GET_WRAPPED) on an
 * operation socket of its AF_ALG type "diamond" gives the current state in
 * it. Bytes 0 .. 31 are the AEAD's associated data.
 */
#define DMD_WRAP_MAGIC		"DMDW"
#define DMD_WRAP_VERSION	1
#define DMD_WRAP_OFF_VERSION	4
#define DMD_WRAP_OFF_SUITE	5
#define DMD_WRAP_OFF_FLAGS	6	/* bit 0: a group cursor follows */
#define DMD_WRAP_OFF_RSVD0	7	/* 0 */
#define DMD_WRAP_OFF_DEVICE	8	/* le32 */
#define DMD_WRAP_OFF_GEN	12	/* le16 */
#define DMD_WRAP_OFF_RSVD1	14	/* le16 0 */
#define DMD_WRAP_OFF_EPOCH	16	/* le64 e, the inner blob's epoch */
#define DMD_WRAP_OFF_GROUP	24	/* le32 c, the cursor's group, or 0 */
#define DMD_WRAP_OFF_LEN	28	/* le32 L, inner bytes */
#define DMD_WRAP_OFF_NONCE	32
#define DMD_WRAP_AD_SIZE	32
#define DMD_WRAP_NONCE_SIZE	24
#define DMD_WRAP_HDR		56	/* the ciphertext starts here */
#define DMD_WRAP_FLAG_CURSOR	0x01
#define DMD_WRAP_KEY_SIZE	32
#define DMD_WRAP_KEY_DESC	"diamond:wrap"
/*
 * diamond.ko's key type (Documentation/kernel-api.rst, "The key type
 * diamond"): "diamond:wrap" and, per device, "diamond:<id>" (the id in
 * decimal), whose payload is the device's setkey input (an open-only
 * version 2 blob, then its cursor when it has one). No other consumer of
 * keys (AF_ALG by serial, dm-crypt) takes this type.
 */
#define DMD_KEY_TYPE		"diamond"
#define DMD_KEY_DESC_PREFIX	"diamond:"
#define DMD_KEY_MIN		DMD_KEY1_SIZE
/*
 * Device key by reference "DMDR" (kernel-api.rst, "Setkey forms"): a
 * setkey input naming the key "diamond:<id>" that the caller's keyrings
 * hold; the module keys the tfm with its payload, which the caller never
 * sees. le32 device id at byte 8; bytes 6 and 7 are 0.
 */
#define DMD_REF_MAGIC		"DMDR"
#define DMD_REF_VERSION		1
#define DMD_REF_OFF_VERSION	4
#define DMD_REF_OFF_SUITE	5
#define DMD_REF_OFF_RSVD	6	/* le16 0 */
#define DMD_REF_OFF_DEVICE	8	/* le32 */
#define DMD_REF_SIZE		12
/* A group cursor after a version 2 blob: le64(e) || le32(c) || R_{e,c*g}. */
#define DMD_CURSOR_SIZE(k)	(12 + (k))
#define DMD_WRAP_INNER_MAX	(DMD_BLOB2_MAX + DMD_CURSOR_SIZE(DMD_KEY_MAX))
#define DMD_WRAP_SIZE(inner)	(DMD_WRAP_HDR + (inner) + DMD_TAG_SIZE)
#define DMD_WRAP_MAX		DMD_WRAP_SIZE(DMD_WRAP_INNER_MAX)	/* 180 */
/* getsockopt(opfd, SOL_ALG, ...) of AF_ALG type "diamond": 'D','W'. */
#define DIAMOND_ALG_GET_WRAPPED	0x4457

/* Epoch body (spec section 7): le16 length before each record. */
#define DMD_BODY_LEN_SIZE	2

/* Trailer flag in the index field of TB (spec section 5). */
#define DMD_TRAILER_FLAG	0x80000000u
/* Group trailer flag in the index field of GB_i (spec section 5.1). */
#define DMD_GROUP_FLAG		0x40000000u
/*
 * Grid trailer flag in the index field of GTB_{u,t} (spec section 14.3);
 * bits 16..18 hold t, the low 16 bits the unit's first index.
 */
#define DMD_GRID_FLAG		0x20000000u
#define DMD_GRID_TAG_SHIFT	16

/* Slot layout: R_{j+1} at 0, H at k, P at k + 16, keystream at k + 32. */
#define DMD_SLOT_HKEY(k)	(k)
#define DMD_SLOT_PAD(k)		((k) + 16)
#define DMD_SLOT_KS(k)		((k) + 32)

/* Frames (spec section 8). */
#define DMD_FRAME_SYNC0		0x44	/* 'D' */
#define DMD_FRAME_SYNC1		0x46	/* 'F' */
#define DMD_FRAME_RECORD	1
#define DMD_FRAME_TAG		2
#define DMD_FRAME_GROUP		3	/* group tag, g < b (spec 5.1) */
#define DMD_FRAME_HDR		20

/* Packet radio (spec section 14). */
#define DMD_PKT_ADDR_MAX	4	/* A, the address width: 1 .. 4 bytes */
#define DMD_PKT_CTL_F		0x80	/* frame type: 1 is reserved */
#define DMD_PKT_CTL_N		0x40	/* an anchor follows */
#define DMD_PKT_CTL_J		0x3f	/* j mod 64 */
#define DMD_PKT_ANCHOR_SIZE	4	/* le32(e mod 2^32) */
#define DMD_PKT_TAG_SIZE	12	/* a grid tag on the air: S[0:12] */
/* The longest record: A = 4, an anchor and two tags in 255 bytes. */
#define DMD_PKT_MAX_RECORD	222
#define DMD_PKT_MAX		255
#define DMD_GRID_UNIT		16	/* records per unit, a 4x4 grid */
#define DMD_GRID_TAGS		8	/* t 0..3 rows, 4..7 columns */
#define DMD_PKT_CANDIDATES	4	/* positions tried per packet, at most */
#define DMD_PKT_NEAR		3	/* of them near the cursor */
#define DMD_PKT_B_MAX		65520	/* the largest multiple of 16 <= 65535 */

/*
 * diamond.ko's grid requests (Documentation/kernel-api.rst, "Packet radio:
 * the tag grid"): authsize 12, a 32-byte control table as the AAD.
 */
#define DMD_GRID_TABLE_SIZE	32
#define DMD_GRID_OFF_UNIT	0	/* le32 u */
#define DMD_GRID_OFF_HELD	4	/* le16: records present */
#define DMD_GRID_OFF_TAGS	6	/* tags present */
#define DMD_GRID_OFF_FLAGS	7
#define DMD_GRID_OFF_RELEASED	8	/* out: le16, released now */
#define DMD_GRID_OFF_VERIFIED	10	/* out: tags verified now */
#define DMD_GRID_OFF_STATE	11	/* out: DMD_GRID_DECIDED */
#define DMD_GRID_OFF_UNIT_REL	12	/* out: le16, the unit's released */
#define DMD_GRID_OFF_UNIT_VER	14	/* out: the unit's verified tags */
#define DMD_GRID_OFF_CUR_EPOCH	16	/* out: le64 e_c */
#define DMD_GRID_OFF_CUR_UNIT	24	/* out: le32 u_c */
#define DMD_GRID_GIVE_UP	0x01	/* flags: decide the unit */
#define DMD_GRID_DECIDED	0x01	/* state: the unit is behind the cursor */
#define DMD_GRID_WINDOW		16	/* units the cursor's window holds */
/*
 * The grid cursor after a version 2 blob: le64(e_c) || le32(u_c) ||
 * R_{e_c,16u_c} || 16 * le16 released || 16 * u8 verified.
 */
#define DMD_GRID_CURSOR_SIZE(k)	(12 + (k) + 3 * DMD_GRID_WINDOW)

/* Error codes of the portable core (spec section 12). */
#define DMD_OK			0
#define DMD_EINVAL		(-1)
#define DMD_EKEY		(-2)
#define DMD_EFORMAT		(-3)
#define DMD_ESIZE		(-4)
#define DMD_EFULL		(-5)
#define DMD_EBADMSG		(-6)
#define DMD_EEXPIRED		(-7)
#define DMD_ESKIP		(-8)
#define DMD_ESPACE		(-9)

#endif
