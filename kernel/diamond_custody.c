// SPDX-License-Identifier: GPL-2.0
/*
 * Custody (Documentation/kernel-api.rst, "Custody"): which keyring keys
 * the module trusts, and which keys a tfm may export its state from.
 *
 * Any process may add a logon key of any description to its own thread,
 * process or user keyring, and request_key() returns the first match, so a
 * compromised gateway could plant a "diamond:wrap" (every export sealed
 * under bytes it knows) or a "diamond:<id>" of its own. A key counts only
 * when root of the initial user namespace owns it (a key keeps its
 * creator's uid; only CAP_SYS_ADMIN may chown one) and no one may write it
 * (keyctl update of a possessed key needs nothing but write permission, and
 * would replace a root-owned payload with known bytes). A planted key found
 * first shadows the genuine one: the module then has none, a denial of
 * service and never a disclosure.
 *
 * Export seals a tfm's state under the wrap key, and a later setkey of it
 * keys any gateway; so only a state that came from custody may be sealed,
 * or a process could launder a key of its own for device D into D's
 * wrapped state. A tfm's key is in custody when it came wrapped (only an
 * export seals under the wrap key), was given in clear by a caller with
 * CAP_SYS_ADMIN in the initial user namespace (the loader), or is exactly
 * the payload of a custody key "diamond:<id>" for its device, as a key by
 * serial arrives (af_alg hands setkey the payload of the key).
 */
#include <keys/user-type.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/key.h>
#include <linux/kernel.h>
#include <linux/rwsem.h>
#include <linux/uidgid.h>

#include "diamond.h"

#if IS_ENABLED(CONFIG_KEYS)

/* Every class's write permission: any of them lets a payload be replaced. */
#define DMD_KEY_WRITE	(KEY_POS_WRITE | KEY_USR_WRITE | KEY_GRP_WRITE | \
			 KEY_OTH_WRITE)

/* Root's and not writable: the loader's key. @key->sem held. */
bool diamond_custody_key(const struct key *key)
{
	return uid_eq(key->uid, GLOBAL_ROOT_UID) &&
	       !(READ_ONCE(key->perm) & DMD_KEY_WRITE);
}

/*
 * @blob (@len bytes) is, byte for byte, the payload of the custody key
 * "diamond:<id>" the caller finds for the device @blob names. Compared in
 * place under the key's semaphore, in constant time: nothing is copied.
 */
static bool device_key_match(const u8 *blob, unsigned int len)
{
	char desc[sizeof("diamond:4294967295")];
	const struct user_key_payload *upl;
	struct key *key;
	bool match;

	if (len < DMD_BLOB_OFF_DEVICE + 4)
		return false;
	snprintf(desc, sizeof(desc), "diamond:%u",
		 get_unaligned_le32(blob + DMD_BLOB_OFF_DEVICE));
	key = request_key(&key_type_logon, desc, NULL);
	if (IS_ERR(key))
		return false;
	down_read(&key->sem);
	upl = user_key_payload_locked(key);
	match = diamond_custody_key(key) && upl && upl->datalen == len &&
		!crypto_memneq(upl->data, blob, len);
	up_read(&key->sem);
	key_put(key);
	return match;
}

#else /* !CONFIG_KEYS: no keyrings, only the administrator */

static bool device_key_match(const u8 *blob, unsigned int len)
{
	return false;
}

#endif

/*
 * A clear setkey input (@blob, @len bytes) comes from custody: the caller
 * is the administrator, or the bytes are its device's custody key. Process
 * context, may sleep. Not audited: a false answer refuses nothing now.
 */
bool diamond_custody_clear(const u8 *blob, unsigned int len)
{
	return ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN) ||
	       device_key_match(blob, len);
}
