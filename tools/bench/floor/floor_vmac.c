// SPDX-License-Identifier: GPL-2.0
/*
 * dmd_floor's parameter "nh", its VMAC lines (issue 32; Documentation/
 * performance.md, "ZMAC, PMAC1, PMAC2x and VMAC"): the kernel's
 * vmac64(aes) shash (crypto/vmac.c, draft-krovetz-vmac-01 with a 16-byte
 * nonce before the message) per record beside Diamond's record hashes:
 * suite 2's poly1305_init/update/final() under a one-time key, suite 1's
 * "ghash" shash keyed per record with a one-time H; at 16 B to 4 KiB,
 * guest ns under qemu -icount shift=0 (instructions):
 *
 *   "driver vmac64 DRIVER ghash DRIVER", then per length
 *   "vmac LEN poly1305 NS ghash NS vmac64 NS" (median of @reps runs of
 *   VM_RECORDS records, the vmac64 key set once: its NH, L2 and L3
 *   subkeys and AES schedule are per key, as nhpoly1305's nh-fixed
 *   column);
 *   or "skip vmac64: ERR" where the kernel has no such template (it was
 *   removed upstream in 2025).
 */
#include <crypto/hash.h>
#include <crypto/poly1305.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "floor.h"

#define VM_RECORDS	16
#define VM_NONCE	16	/* vmac64's input starts with its nonce */
#define VM_LEN_MAX	4096

static const unsigned int vm_lens[] = { 16, 64, 256, 1024, 4096 };

static int vm_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

enum vm_way { VM_POLY1305, VM_GHASH, VM_VMAC64, VM_WAYS };

/*
 * One record's hash: Poly1305 over the message under the one-time key at
 * its end, GHASH under a one-time H (set per record), or vmac64 over
 * nonce || message.
 */
static int vm_record(struct crypto_shash *tfm, enum vm_way way, const u8 *msg,
		     unsigned int len, u8 *out)
{
	const u8 *key = msg + VM_NONCE + VM_LEN_MAX;
	struct poly1305_desc_ctx pd;
	int err = 0;

	if (way == VM_POLY1305) {
		poly1305_init(&pd, key);
		poly1305_update(&pd, msg + VM_NONCE, len);
		poly1305_final(&pd, out);
		return 0;
	} else {
		SHASH_DESC_ON_STACK(desc, tfm);

		if (way == VM_GHASH)
			err = crypto_shash_setkey(tfm, key, 16);
		desc->tfm = tfm;
		if (!err)
			err = way == VM_GHASH ?
			      crypto_shash_digest(desc, msg + VM_NONCE, len, out) :
			      crypto_shash_digest(desc, msg, VM_NONCE + len, out);
		shash_desc_zero(desc);
		return err;
	}
}

/* Median guest ns per record of @reps runs; -errno on failure. */
static s64 vm_time(struct crypto_shash *tfm, enum vm_way way, const u8 *msg,
		   unsigned int len, unsigned int reps)
{
	u64 t[FLOOR_REPS_MAX], t0;
	u8 out[POLY1305_DIGEST_SIZE];
	unsigned int k, i;
	int err = 0;

	for (k = 0; k < reps && !err; k++) {
		t0 = ktime_get_ns();
		for (i = 0; i < VM_RECORDS && !err; i++)
			err = vm_record(tfm, way, msg, len, out);
		t[k] = ktime_get_ns() - t0;
	}
	memzero_explicit(out, sizeof(out));
	if (err)
		return err;
	sort(t, reps, sizeof(t[0]), vm_cmp, NULL);
	return t[reps / 2] / VM_RECORDS;
}

int floor_vmac_lines(char *buf, int len, unsigned int reps)
{
	static const u8 key[16] = "abcdefghijklmnop";
	struct crypto_shash *tfm[VM_WAYS] = { NULL };
	s64 ns[VM_WAYS];
	unsigned int l, w;
	u8 *msg;
	int err;

	tfm[VM_VMAC64] = crypto_alloc_shash("vmac64(aes)", 0, 0);
	if (IS_ERR(tfm[VM_VMAC64]))
		return len + scnprintf(buf + len, PAGE_SIZE - len,
				       "skip vmac64: %ld\n", PTR_ERR(tfm[VM_VMAC64]));
	tfm[VM_GHASH] = crypto_alloc_shash("ghash", 0, 0);
	err = IS_ERR(tfm[VM_GHASH]) ? PTR_ERR(tfm[VM_GHASH]) : 0;
	if (err)
		tfm[VM_GHASH] = NULL;
	/* nonce || message || a 32-byte one-time key (Poly1305; H its first half) */
	msg = err ? NULL : kzalloc(VM_NONCE + VM_LEN_MAX + 32, GFP_KERNEL);
	if (!err)
		err = msg ? crypto_shash_setkey(tfm[VM_VMAC64], key, sizeof(key)) : -ENOMEM;
	if (!err) {
		memset(msg + VM_NONCE, 0x5a, VM_LEN_MAX);
		memset(msg + VM_NONCE + VM_LEN_MAX, 0x42, 32);
		len += scnprintf(buf + len, PAGE_SIZE - len, "driver vmac64 %s ghash %s\n",
				 crypto_shash_driver_name(tfm[VM_VMAC64]),
				 crypto_shash_driver_name(tfm[VM_GHASH]));
	}
	for (l = 0; !err && l < ARRAY_SIZE(vm_lens); l++) {
		for (w = 0; !err && w < VM_WAYS; w++) {
			ns[w] = vm_time(tfm[w], w, msg, vm_lens[l], reps);
			if (ns[w] < 0)
				err = ns[w];
		}
		if (!err)
			len += scnprintf(buf + len, PAGE_SIZE - len,
					 "vmac %u poly1305 %lld ghash %lld vmac64 %lld\n",
					 vm_lens[l], ns[VM_POLY1305], ns[VM_GHASH],
					 ns[VM_VMAC64]);
	}
	if (err)
		len += scnprintf(buf + len, PAGE_SIZE - len, "skip vmac64: %d\n", err);
	kfree_sensitive(msg);
	if (tfm[VM_GHASH])
		crypto_free_shash(tfm[VM_GHASH]);
	crypto_free_shash(tfm[VM_VMAC64]);
	return len;
}
