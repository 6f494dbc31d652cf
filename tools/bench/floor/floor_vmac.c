// SPDX-License-Identifier: GPL-2.0
/*
 * dmd_floor's parameter "nh", its VMAC lines (issue 32; Documentation/
 * performance.md, "ZMAC, PMAC1, PMAC2x and VMAC"): the kernel's
 * vmac64(aes) shash (crypto/vmac.c, draft-krovetz-vmac-01 with a 16-byte
 * nonce before the message) per record beside Diamond2's record hash,
 * poly1305_init/update/final() under a one-time key, at 16 B to 4 KiB,
 * guest ns under qemu -icount shift=0 (instructions):
 *
 *   "driver vmac64 DRIVER", then per length
 *   "vmac LEN poly1305 NS vmac64 NS" (median of @reps runs of VM_RECORDS
 *   records, the vmac64 key set once: its NH, L2 and L3 subkeys and AES
 *   schedule are per key, as nhpoly1305's nh-fixed column);
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

/* One record's hash: vmac64 over nonce || message, or Poly1305 over it. */
static int vm_record(struct crypto_shash *tfm, const u8 *msg, unsigned int len,
		     u8 *out)
{
	struct poly1305_desc_ctx pd;
	int err;

	if (!tfm) {
		poly1305_init(&pd, msg + VM_NONCE + VM_LEN_MAX);
		poly1305_update(&pd, msg + VM_NONCE, len);
		poly1305_final(&pd, out);
		return 0;
	} else {
		SHASH_DESC_ON_STACK(desc, tfm);

		desc->tfm = tfm;
		err = crypto_shash_digest(desc, msg, VM_NONCE + len, out);
		shash_desc_zero(desc);
		return err;
	}
}

/* Median guest ns per record of @reps runs; -errno on failure. */
static s64 vm_time(struct crypto_shash *tfm, const u8 *msg, unsigned int len,
		   unsigned int reps)
{
	u64 t[FLOOR_REPS_MAX], t0;
	u8 out[POLY1305_DIGEST_SIZE];
	unsigned int k, i;
	int err = 0;

	for (k = 0; k < reps && !err; k++) {
		t0 = ktime_get_ns();
		for (i = 0; i < VM_RECORDS && !err; i++)
			err = vm_record(tfm, msg, len, out);
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
	struct crypto_shash *tfm;
	s64 poly, vmac;
	unsigned int l;
	u8 *msg;
	int err;

	tfm = crypto_alloc_shash("vmac64(aes)", 0, 0);
	if (IS_ERR(tfm))
		return len + scnprintf(buf + len, PAGE_SIZE - len,
				       "skip vmac64: %ld\n", PTR_ERR(tfm));
	/* nonce || message || a 32-byte one-time Poly1305 key */
	msg = kzalloc(VM_NONCE + VM_LEN_MAX + 32, GFP_KERNEL);
	err = msg ? crypto_shash_setkey(tfm, key, sizeof(key)) : -ENOMEM;
	if (!err) {
		memset(msg + VM_NONCE, 0x5a, VM_LEN_MAX);
		memset(msg + VM_NONCE + VM_LEN_MAX, 0x42, 32);
		len += scnprintf(buf + len, PAGE_SIZE - len, "driver vmac64 %s\n",
				 crypto_shash_driver_name(tfm));
	}
	for (l = 0; !err && l < ARRAY_SIZE(vm_lens); l++) {
		poly = vm_time(NULL, msg, vm_lens[l], reps);
		vmac = vm_time(tfm, msg, vm_lens[l], reps);
		if (poly < 0 || vmac < 0)
			err = poly < 0 ? poly : vmac;
		else
			len += scnprintf(buf + len, PAGE_SIZE - len,
					 "vmac %u poly1305 %lld vmac64 %lld\n",
					 vm_lens[l], poly, vmac);
	}
	if (err)
		len += scnprintf(buf + len, PAGE_SIZE - len, "skip vmac64: %d\n", err);
	kfree_sensitive(msg);
	crypto_free_shash(tfm);
	return len;
}
