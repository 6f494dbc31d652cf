// SPDX-License-Identifier: GPL-2.0
/*
 * Custody (Documentation/kernel-api.rst, "Custody"): which setkey inputs
 * count as coming from the loader, and a device key by reference.
 *
 * Export seals a tfm's state under the wrap key, and a later setkey of it
 * keys any gateway; so only a state that came from custody may be sealed,
 * or a process could launder a key of its own for device D into D's
 * wrapped state. A tfm's key is in custody when it came wrapped (only an
 * export seals under the wrap key), by reference to the key "diamond:<id>"
 * of the module's own type (only the administrator adds those,
 * diamond_keytype.c), or in clear from a caller with CAP_SYS_ADMIN in the
 * initial user namespace (the loader keying a tfm to export its state).
 */
#include <linux/capability.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "diamond.h"

/*
 * A clear setkey input comes from custody: the caller is the
 * administrator. Not audited: a false answer refuses nothing now.
 */
bool diamond_custody_clear(void)
{
	return ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN);
}

bool diamond_custody_is_ref(const u8 *in, unsigned int len)
{
	return len >= 4 && !memcmp(in, DMD_REF_MAGIC, 4);
}

/*
 * The payload @out (at most DMD_WRAP_INNER_MAX bytes) of the device key
 * that the reference @ref (@len bytes) names for a tfm of @suite: its
 * length, or -EINVAL (a malformed reference, or a payload of another
 * device or suite, or one that may seal), -ENOKEY (none, not root's) or
 * what the keyring search said. Process context, may sleep.
 */
int diamond_custody_ref(const u8 *ref, unsigned int len, u8 suite, u8 *out)
{
	char desc[sizeof(DMD_KEY_DESC_PREFIX "4294967295")];
	u32 id;
	int n;

	if (len != DMD_REF_SIZE || ref[DMD_REF_OFF_VERSION] != DMD_REF_VERSION ||
	    ref[DMD_REF_OFF_SUITE] != suite ||
	    get_unaligned_le16(ref + DMD_REF_OFF_RSVD))
		return -EINVAL;
	id = get_unaligned_le32(ref + DMD_REF_OFF_DEVICE);
	snprintf(desc, sizeof(desc), DMD_KEY_DESC_PREFIX "%u", id);
	n = diamond_keytype_copy(desc, out, DMD_WRAP_INNER_MAX);
	if (n < 0)
		return n;
	/* The loader's payload is open-only and names this device. */
	if (n < DMD_BLOB_SIZE(DMD_KEY_MIN) || out[DMD_BLOB_OFF_SUITE] != suite ||
	    get_unaligned_le32(out + DMD_BLOB_OFF_DEVICE) != id ||
	    !(out[DMD_BLOB_OFF_FLAGS] & DMD_BLOB_FLAG_OPEN_ONLY)) {
		memzero_explicit(out, n);
		return -EINVAL;
	}
	return n;
}
