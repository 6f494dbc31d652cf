// SPDX-License-Identifier: GPL-2.0
/*
 * Erasing the big buffers of an epoch: the slot table (about 180 KiB for
 * b = 1024 in suite 2) and the request's bounce buffer.
 *
 * memzero_explicit() is memset(), which on x86 with ERMS is one "rep
 * stosb": under the benchmark's qemu -icount every iteration of it counts
 * as an instruction, so the erase after each accepted epoch cost more than
 * the epoch's Poly1305 work. Eight 64-bit stores a step do the same job in
 * an eighth of the instructions here and are as fast on hardware. The
 * stores are WRITE_ONCE() so the compiler can neither drop them nor turn
 * the loop back into a memset() call.
 */
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "diamond.h"

void diamond_wipe(void *buf, size_t len)
{
	u8 *p = buf;
	u64 *w;

	for (; len && !IS_ALIGNED((unsigned long)p, 8); len--, p++)
		WRITE_ONCE(*p, 0);
	for (w = (u64 *)p; len >= 64; len -= 64, w += 8) {
		WRITE_ONCE(w[0], 0);
		WRITE_ONCE(w[1], 0);
		WRITE_ONCE(w[2], 0);
		WRITE_ONCE(w[3], 0);
		WRITE_ONCE(w[4], 0);
		WRITE_ONCE(w[5], 0);
		WRITE_ONCE(w[6], 0);
		WRITE_ONCE(w[7], 0);
	}
	for (p = (u8 *)w; len; len--, p++)
		WRITE_ONCE(*p, 0);
	barrier_data(buf);
}
