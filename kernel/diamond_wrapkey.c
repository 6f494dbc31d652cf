// SPDX-License-Identifier: GPL-2.0
/*
 * The wrap key (Documentation/kernel-api.rst, "The wrap key"): the 32
 * bytes that seal a tfm's exported state (diamond_wrap.c), found in the
 * keyrings of the process that calls setkey, never given by it: the key
 * "diamond:wrap" of the module's own key type (diamond_keytype.c), which
 * nothing but this module can use and no process can read.
 *
 * The payload is copied and the reference dropped at once: the tfm keeps
 * its copy (erased with the rest of its key state), so an export runs in
 * any process, and a key revoked later stops new setkeys, not tfms
 * already keyed.
 */
#include <linux/string.h>

#include "diamond.h"

/*
 * The wrap key into @out, 0; else -ENOKEY (none, or not root's) or what
 * request_key() returned (-EACCES, -EKEYREVOKED, -EKEYEXPIRED). Process
 * context, may sleep.
 */
int diamond_wrap_key_find(u8 out[DMD_WRAP_KEY_SIZE])
{
	int n = diamond_keytype_copy(DMD_WRAP_KEY_DESC, out, DMD_WRAP_KEY_SIZE);

	if (n >= 0 && n != DMD_WRAP_KEY_SIZE) {
		memzero_explicit(out, DMD_WRAP_KEY_SIZE);
		return -ENOKEY;
	}
	return n < 0 ? n : 0;
}
