// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Long-message MAC benchmark firmware (not a test), for SuperSonic
 * against ZMAC on the Cortex-M4 (issue 32): one region per MAC and
 * length, one call each, in this order (bench/longmac.sh names them):
 *   MACs   ZMAC-256, ZMAC-192, PMAC1, PMAC2x-256, PMAC2x-192,
 *          SuperSonic-384, SuperSonic-256, VMAC-64, VMAC-128
 *   sizes  16, 64, 256, 1024, 4096, 16384, 65536 bytes
 * Key set-up is outside the regions (SuperSonic's K' and L, VMAC's
 * subkeys: once per key); ZMAC's masks and PMAC's nothing are inside, as
 * their reference computes them per message. Every MAC here runs in time
 * independent of the data, so one call per region is the figure.
 */
#include "board.h"
#include "skinny_macs.h"
#include "supersonic.h"
#include "vmac.h"

#define NLENS	7
#define MAXLEN	65536

static const uint32_t lens[NLENS] = { 16, 64, 256, 1024, 4096, 16384, 65536 };
static uint8_t m[MAXLEN], key[16], tag[32];
static struct supersonic_key sk;
static struct vmac_key vk;

/* Per-key set-up, outside the regions. */
static void setup(unsigned int mac)
{
	if (mac == 5 || mac == 6)
		supersonic_init(&sk, key, mac == 5 ? 3 : 2);
	else if (mac >= 7)
		vmac_init(&vk, key, mac == 7 ? 8 : 16);
}

static void run(unsigned int mac, size_t len)
{
	static const uint8_t nonce[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	switch (mac) {
	case 0: case 1: case 2: case 3: case 4: skinny_mac(mac, key, m, len, tag); break;
	case 5: case 6: supersonic_mac(&sk, m, len, tag, tag + 16); break;
	default: vmac_tag(&vk, nonce, sizeof(nonce), m, len, tag); break;
	}
}

int main(void)
{
	unsigned int mac, l;
	size_t i;

	board_init();
	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(0x40 + i);
	for (i = 0; i < sizeof(m); i++)
		m[i] = (uint8_t)(i * 7 + 3);
	for (mac = 0; mac < 9; mac++) {
		setup(mac);
		for (l = 0; l < NLENS; l++) {
			board_mark_start(1);
			run(mac, lens[l]);
			board_mark_stop(1);
			m[l] ^= tag[0];
		}
	}
	supersonic_wipe(&sk);
	vmac_wipe(&vk);
	board_out(tag, sizeof(tag));
	board_exit(0);
}
