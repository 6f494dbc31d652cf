// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * AES-128 encryption (FIPS-197) for 8-bit AVR, replacing core/aes128.c in
 * the AVR firmware (same API, include/diamond/aes128.h). The bitsliced portable AES
 * is constant time on cached CPUs but slow on an 8-bit core; aes128.S uses
 * an S-box table in flash instead, which is constant time on the AVR (no
 * data cache, LPM takes 3 cycles at any address; see aes128.S).
 *
 * The context keeps the plain 176-byte FIPS-197 schedule in the first
 * bytes of ctx->rk (352 bytes, sized for the bitsliced form); the rest is
 * never written. Branches here depend on the public length only.
 */
#include <diamond/aes128.h>
#include <diamond/util.h>

#define AVR_AES_RK_BYTES (16 * (DMD_AES128_ROUNDS + 1))

_Static_assert(sizeof(((struct dmd_aes128 *)0)->rk) >= AVR_AES_RK_BYTES,
	       "the 176-byte schedule fits in ctx->rk");

/* aes128.S */
void dmd_avr_aes128_expand(uint8_t rk[176], const uint8_t key[16]);
void dmd_avr_aes128_encrypt(const uint8_t rk[176], uint8_t out[16],
			    const uint8_t in[16]);
void dmd_avr_aes128_ctr(const uint8_t rk[176], uint8_t ctr[16],
			uint8_t *out, uint16_t nblocks);

static uint8_t *schedule(struct dmd_aes128 *ctx)
{
	return (uint8_t *)ctx->rk;
}

static const uint8_t *schedule_c(const struct dmd_aes128 *ctx)
{
	return (const uint8_t *)ctx->rk;
}

void dmd_aes128_init(struct dmd_aes128 *ctx, const uint8_t key[16])
{
	dmd_avr_aes128_expand(schedule(ctx), key);
}

void dmd_aes128_encrypt(const struct dmd_aes128 *ctx, uint8_t out[16],
			const uint8_t in[16])
{
	dmd_avr_aes128_encrypt(schedule_c(ctx), out, in);
}

/* No lanes to share here: two blocks are two calls. */
void dmd_aes128_encrypt2(const struct dmd_aes128 *ctx, uint8_t out0[16],
			 uint8_t out1[16], const uint8_t in0[16],
			 const uint8_t in1[16])
{
	uint8_t t[DMD_AES128_BLOCK_SIZE];

	dmd_avr_aes128_encrypt(schedule_c(ctx), t, in1);
	dmd_avr_aes128_encrypt(schedule_c(ctx), out0, in0);
	for (unsigned int i = 0; i < DMD_AES128_BLOCK_SIZE; i++)
		out1[i] = t[i];
	dmd_wipe(t, sizeof(t));
}

void dmd_aes128_ctr(const struct dmd_aes128 *ctx, uint8_t ctr[16],
		    uint8_t *out, size_t len)
{
	uint8_t tail[DMD_AES128_BLOCK_SIZE];
	size_t n = len / DMD_AES128_BLOCK_SIZE, i;

	if (n)
		dmd_avr_aes128_ctr(schedule_c(ctx), ctr, out, (uint16_t)n);
	out += n * DMD_AES128_BLOCK_SIZE;
	len %= DMD_AES128_BLOCK_SIZE;
	if (!len)
		return;
	/* A final partial block: its unused keystream is discarded. */
	dmd_avr_aes128_ctr(schedule_c(ctx), ctr, tail, 1);
	for (i = 0; i < len; i++)
		out[i] = tail[i];
	dmd_wipe(tail, sizeof(tail));
}

/* Only the 176 schedule bytes were ever written. */
void dmd_aes128_wipe(struct dmd_aes128 *ctx)
{
	dmd_wipe(schedule(ctx), AVR_AES_RK_BYTES);
}
