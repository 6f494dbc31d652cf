// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The PMAC-variants reference's five MACs by number (skinny_macs.h).
 */
#include "pmac.h"
#include "skinny_macs.h"
#include "zmac.h"

const char *const skinny_mac_names[SKINNY_MACS] = {
	"ZMAC on SKINNY-128-256", "ZMAC on SKINNY-64-192", "PMAC1 on SKINNY-128-256",
	"PMAC2x on SKINNY-128-256", "PMAC2x on SKINNY-64-192",
};
const uint8_t skinny_mac_taglen[SKINNY_MACS] = { 32, 16, 16, 32, 16 };

void skinny_mac(unsigned int i, const uint8_t key[16], const uint8_t *m,
		size_t len, uint8_t *tag)
{
	switch (i) {
	case 0:
		zmac(&skinny_tbc_128_256, ZMAC_AS_REFERENCE, key, m, len, tag, 32);
		break;
	case 1:
		zmac(&skinny_tbc_64_192, ZMAC_AS_REFERENCE, key, m, len, tag, 16);
		break;
	case 2:
		pmac1(key, m, len, tag);
		break;
	case 3:
		pmac2x(&skinny_tbc_128_256, key, m, len, tag, 32);
		break;
	default:
		pmac2x(&skinny_tbc_64_192, key, m, len, tag, 16);
		break;
	}
}
