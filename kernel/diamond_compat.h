/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version difference diamond.ko builds across (6.1 .. 7.3),
 * in one place. The module's code is written against the newest interfaces;
 * each gate below supplies them on the kernels before the upstream change
 * it names, so that dropping an old kernel means deleting one block.
 *
 * Suite 2 uses nothing here that upstream removed: no "poly1305" shash
 * (removed in 6.16), the stable library entry points chacha_crypt() and
 * poly1305_init/update/final(), and the Poly1305 core where the kernel's
 * configuration builds it (DMD_POLY1305_CORE below).
 * Documentation/kernel-api.rst, "Kernel versions", says why.
 *
 * checkpatch's LINUX_VERSION_CODE and CONSTANT_COMPARISON warnings are
 * ignored for this file alone (mk/kernel.mk): comparing versions is what
 * an out-of-tree compat header is for.
 */
#ifndef DIAMOND_COMPAT_H
#define DIAMOND_COMPAT_H

#include <linux/version.h>
#include <crypto/chacha.h>
#include <crypto/internal/skcipher.h>
#include <linux/string.h>

/*
 * 6.12, "move asm/unaligned.h to linux/unaligned.h" (5f60d5f6bbc1): the
 * get/put_unaligned_le*() helpers moved to a generic header.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * 6.7, the lskcipher rework (Herbert Xu, "crypto: skcipher - Add
 * lskcipher" and the skcipher_alg_common patches of that series): the
 * attributes a template reads from its skcipher spawn moved to struct
 * skcipher_alg_common, reached by crypto_spawn_skcipher_alg_common();
 * crypto_spawn_skcipher_alg() and crypto_skcipher_alg_{ivsize,min_keysize,
 * max_keysize}() went away. Before it, struct skcipher_alg has the same
 * fields under the same names.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
#define skcipher_alg_common skcipher_alg

static inline struct skcipher_alg *
crypto_spawn_skcipher_alg_common(struct crypto_skcipher_spawn *spawn)
{
	return crypto_spawn_skcipher_alg(spawn);
}
#endif

/*
 * 6.16, "crypto: lib/chacha - strongly type the ChaCha state" (98066f2f8901,
 * Eric Biggers): chacha_init_consts() and chacha_crypt() take a
 * struct chacha_state instead of a u32[16]. Before it, the same words
 * (the layout 98066f2f8901 gives the struct).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 16, 0)
struct chacha_state {
	u32 x[CHACHA_STATE_WORDS];
};

static inline void dmd_chacha_init_consts(struct chacha_state *state)
{
	chacha_init_consts(state->x);
}

static inline void dmd_chacha_crypt(struct chacha_state *state, u8 *dst,
				    const u8 *src, unsigned int bytes,
				    int nrounds)
{
	chacha_crypt(state->x, dst, src, bytes, nrounds);
}
#else
#define dmd_chacha_init_consts	chacha_init_consts
#define dmd_chacha_crypt	chacha_crypt
#endif

/*
 * G of suite 2 for the short streams of a slot (two blocks at most) on
 * arm64: chacha_crypt() takes a stream over one block to the NEON code,
 * whose routine computes four blocks and a fifth at once whatever the
 * length, in a kernel_neon_begin/end() section, and a stream of one block
 * to chacha_crypt_generic(), that is chacha_block_generic() and an XOR
 * with zeros (6.12's chacha-neon.ko, 7.3's libchacha.ko).
 * chacha_block_generic() straight into the slot is the cheapest the kernel
 * offers there for up to two blocks, 87 instructions a slot below
 * chacha_crypt() on arm64-6.12 (the floor's G, Documentation/
 * performance.md, "Against the floor"). On x86 the SIMD code is cheaper.
 * From 6.16 (the lib/crypto rework the floor's note (2) names) the module
 * leaves chacha_block_generic() alone and chacha_crypt() serves all
 * lengths.
 */
#define DMD_CHACHA_BLOCKS_MAX	(IS_ENABLED(CONFIG_ARM64) && \
				 LINUX_VERSION_CODE < KERNEL_VERSION(6, 16, 0) ? \
				 2 * CHACHA_BLOCK_SIZE : 0)
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 16, 0)
static inline void dmd_chacha_block(struct chacha_state *state, u8 *dst)
{
	chacha_block_generic(state->x, dst, 20);
}
#else
/* Never called: DMD_CHACHA_BLOCKS_MAX is 0. */
static inline void dmd_chacha_block(struct chacha_state *state, u8 *dst)
{
}
#endif

/*
 * The Poly1305 core of lib/crypto (poly1305_core_setkey/blocks/emit(), the
 * generic code in <crypto/internal/poly1305.h>): a record's one-block tag
 * with no descriptor and no SIMD section, where poly1305_init/update/final()
 * take the arch code and, on arm64, save and restore the FPSIMD state for
 * every record (Documentation/performance.md, "Against the floor"). It is
 * built and exported wherever CONFIG_CRYPTO_LIB_POLY1305_GENERIC is set:
 * every kernel of the matrix (libpoly1305, 6.1 to 7.3), but from the
 * lib/crypto rework of 6.18 only when something (Adiantum) selects it, so
 * the gate is the configuration and not the version. Without it suite 2
 * tags through poly1305_init/update/final(), with the same result.
 */
#if IS_ENABLED(CONFIG_CRYPTO_LIB_POLY1305_GENERIC)
#include <crypto/internal/poly1305.h>

#define DMD_POLY1305_CORE	1
#else
#define DMD_POLY1305_CORE	0
#endif

/*
 * Timers, for the selftest module selftests/diamond/atomic: 6.2 added
 * timer_delete_sync() for del_timer_sync(), which 6.16 removed; 6.16
 * renamed from_timer() to timer_container_of() ("timers: Rename
 * from_timer() to timer_container_of()").
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define timer_delete_sync	del_timer_sync
#endif
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 16, 0)
#define timer_container_of	from_timer
#endif

/*
 * 7.1, "lib/crypto: gf128hash: Add GHASH support" (c417e7045b70) and
 * "crypto: ghash - Remove ghash from crypto_shash API" (662a05a24507):
 * there is no "ghash" hash algorithm to spawn any more; GHASH is a library
 * function (the arch PCLMULQDQ/PMULL code where there is one, any context,
 * no allocation). Suite 1 then checks the name "ghash" and calls
 * dmd_lib_ghash(), as gcm does since 9f4e9553a1f4. Seen in the 7.2 and
 * 7.3 headers of trixie-backports; 7.1 is the release of that series.
 * Before it, dmd_lib_ghash() is never called (DMD_GHASH_IS_LIB is 0).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 1, 0)
#include <crypto/gf128hash.h>

#define DMD_GHASH_IS_LIB	1

struct dmd_lib_ghash_state {
	struct ghash_key key;
	struct ghash_ctx ctx;
};

/*
 * @out = GHASH_@h(@hb || @data || zero pad), @hb one 16-byte block. The
 * key in @st is left for the caller to erase: once per tag, or once per
 * epoch where the record loop reuses @st.
 */
static inline void dmd_lib_ghash(struct dmd_lib_ghash_state *st,
				 const u8 h[GHASH_BLOCK_SIZE],
				 const u8 hb[GHASH_BLOCK_SIZE],
				 const u8 *data, unsigned int len,
				 u8 out[GHASH_BLOCK_SIZE])
{
	ghash_preparekey(&st->key, h);
	ghash_init(&st->ctx, &st->key);
	ghash_update(&st->ctx, hb, GHASH_BLOCK_SIZE);
	ghash_update(&st->ctx, data, len);
	ghash_final(&st->ctx, out);	/* erases st->ctx */
}
#else
#include <crypto/ghash.h>

#define DMD_GHASH_IS_LIB	0

struct dmd_lib_ghash_state {
};

static inline void dmd_lib_ghash(struct dmd_lib_ghash_state *st,
				 const u8 h[GHASH_BLOCK_SIZE],
				 const u8 hb[GHASH_BLOCK_SIZE],
				 const u8 *data, unsigned int len,
				 u8 out[GHASH_BLOCK_SIZE])
{
}
#endif

/*
 * 7.3, the AES-CTR library (<crypto/aes-ctr.h>, aes_ctr() on a key from
 * aes_prepareenckey(); crypto/aes.c registers it as "ctr-aes-lib"): AES-CTR
 * in any context, on the arch AES code (AES-NI, the ARMv8 Crypto Extensions
 * or NEON) where there is one, with no tfm, no setkey and no allocation.
 * Suite 1 keys G afresh for every slot, inside requests that may come from
 * softirq, and a ctr(aes) driver's setkey may allocate (7.3's
 * ctr-aes-neonbs does, with GFP_KERNEL), so from 7.3 suite 1 runs G on the
 * library and its instance is built on "ctr-aes-lib" alone
 * (Documentation/kernel-api.rst, "Kernel versions"). 7.2's headers have
 * aes_prepareenckey() but no aes_ctr(). Before 7.3 the ctr(aes) spawn runs
 * G, and dmd_aes_lib_*() are never called (DMD_AES_CTR_IS_LIB is 0).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 3, 0)
#include <crypto/aes-ctr.h>

#define DMD_AES_CTR_IS_LIB	1

struct dmd_aes_lib {
	struct aes_enckey key;
};

static inline int dmd_aes_lib_setkey(struct dmd_aes_lib *aes, const u8 *k,
				     unsigned int klen)
{
	return aes_prepareenckey(&aes->key, k, klen);
}

/* @dst = @src ^ AES-CTR(@ctr); @ctr moves on by the blocks used. */
static inline void dmd_aes_lib_ctr(struct dmd_aes_lib *aes, u8 *dst,
				   const u8 *src, unsigned int len,
				   u8 ctr[AES_BLOCK_SIZE])
{
	aes_ctr(dst, src, len, ctr, &aes->key);
}
#else
#define DMD_AES_CTR_IS_LIB	0

struct dmd_aes_lib {
};

static inline int dmd_aes_lib_setkey(struct dmd_aes_lib *aes, const u8 *k,
				     unsigned int klen)
{
	return -ENOENT;
}

static inline void dmd_aes_lib_ctr(struct dmd_aes_lib *aes, u8 *dst,
				   const u8 *src, unsigned int len, u8 ctr[16])
{
}
#endif

/*
 * AF_ALG's bind callback (include/crypto/if_alg.h): up to 6.12 it takes
 * the type and mask that the user's sockaddr_alg gave; by 7.3 it takes the
 * name alone and every lookup masks AF_ALG_CRYPTOAPI_MASK (no async, no
 * allocating, no driver-only algorithm; 7524070f26d8 in 7.2). The two
 * arrived together as far as the headers of the matrix show (6.12 has
 * neither, 7.3.4 both), so the mask's definition selects the signature.
 * Only diamond_afalg.c includes <crypto/if_alg.h> before this is used.
 */
#ifdef AF_ALG_CRYPTOAPI_MASK
#define DMD_AFALG_BIND_ARGS	const char *name
#define DMD_AFALG_TYPE		0
/*
 * ...less CRYPTO_ALG_ALLOCATES_MEMORY: a socket handles a request's
 * -ENOMEM, so the type takes the instance whose requests allocate their
 * bounce buffer (kernel-api.rst, Memory): a lookup by name gets it, as
 * the one of higher priority, or builds it.
 */
#define DMD_AFALG_MASK		(AF_ALG_CRYPTOAPI_MASK & \
				 ~CRYPTO_ALG_ALLOCATES_MEMORY)
#else
#define DMD_AFALG_BIND_ARGS	const char *name, u32 type, u32 mask
#define DMD_AFALG_TYPE		type
#define DMD_AFALG_MASK		mask
#endif

#endif /* DIAMOND_COMPAT_H */
