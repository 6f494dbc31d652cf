// SPDX-License-Identifier: GPL-2.0 OR MIT
/* F(K, X) = E(E(K, X), X), AES-128 (rekey.h), on the core's AES. */
#include "rekey.h"

#include <diamond/util.h>

void rekey_prf(const struct dmd_aes128 *k, const uint8_t x[16],
	       uint8_t out[16])
{
	struct dmd_aes128 sub;
	uint8_t kx[16];

	dmd_aes128_encrypt(k, kx, x);
	dmd_aes128_init(&sub, kx);
	dmd_aes128_encrypt(&sub, out, x);
	dmd_aes128_wipe(&sub);
	dmd_wipe(kx, sizeof(kx));
}
