// SPDX-License-Identifier: GPL-2.0
/*
 * The wrap key (Documentation/kernel-api.rst, "The wrap key"): the 32
 * bytes that seal a tfm's exported state (diamond_wrap.c), found in the
 * keyrings of the process that calls setkey, never given by it.
 *
 * First choice a logon key "diamond:wrap": userspace can add, search and
 * revoke it but never read it back. Second choice, where the kernel has
 * encrypted keys, an encrypted key of that name (format default, 32 bytes),
 * whose master may be a TPM-sealed trusted key. Either counts only as a
 * custody key (diamond_custody.c: root's, not writable); one planted by
 * anyone else is no wrap key. request_key() with no callout info only
 * searches (no upcall to /sbin/request-key). The payload
 * is copied under the key's semaphore and the reference dropped at once:
 * the tfm keeps its copy (erased with the rest of its key state), so an
 * export runs in any process, and a key revoked later stops new setkeys,
 * not tfms already keyed.
 */
#include <keys/user-type.h>
#include <linux/err.h>
#include <linux/key.h>
#include <linux/rwsem.h>
#include <linux/string.h>

#if IS_REACHABLE(CONFIG_ENCRYPTED_KEYS)
#include <keys/encrypted-type.h>
#endif

#include "diamond.h"

#if IS_ENABLED(CONFIG_KEYS)

/*
 * The payload of a logon key: 32 bytes of a custody key, else no wrap key
 * (-ENOKEY).
 */
static int copy_logon(struct key *key, u8 out[DMD_WRAP_KEY_SIZE])
{
	const struct user_key_payload *upl;
	int err = -ENOKEY;

	down_read(&key->sem);
	upl = user_key_payload_locked(key);
	if (diamond_custody_key(key) && upl &&
	    upl->datalen == DMD_WRAP_KEY_SIZE) {
		memcpy(out, upl->data, DMD_WRAP_KEY_SIZE);
		err = 0;
	}
	up_read(&key->sem);
	return err;
}

#if IS_REACHABLE(CONFIG_ENCRYPTED_KEYS)
/* The decrypted payload of an encrypted custody key, as dm-crypt reads it. */
static int copy_encrypted(struct key *key, u8 out[DMD_WRAP_KEY_SIZE])
{
	const struct encrypted_key_payload *ekp;
	int err = -ENOKEY;

	down_read(&key->sem);
	ekp = key->payload.data[0];
	if (diamond_custody_key(key) && ekp &&
	    ekp->decrypted_datalen == DMD_WRAP_KEY_SIZE) {
		memcpy(out, ekp->decrypted_data, DMD_WRAP_KEY_SIZE);
		err = 0;
	}
	up_read(&key->sem);
	return err;
}
#endif

/* Search the caller's keyrings for a key of @type named "diamond:wrap". */
static int find_typed(struct key_type *type,
		      int (*copy)(struct key *, u8 *), u8 *out)
{
	struct key *key = request_key(type, DMD_WRAP_KEY_DESC, NULL);
	int err;

	if (IS_ERR(key))
		return PTR_ERR(key);
	err = copy(key, out);
	key_put(key);
	return err;
}

/*
 * The wrap key into @out, 0; else -ENOKEY (none, not 32 bytes, or not a
 * custody key: found first, it shadows the loader's) or what
 * request_key() returned (-EACCES, -EKEYREVOKED, -EKEYEXPIRED). Process
 * context, may sleep.
 */
int diamond_wrap_key_find(u8 out[DMD_WRAP_KEY_SIZE])
{
	int err = find_typed(&key_type_logon, copy_logon, out);

#if IS_REACHABLE(CONFIG_ENCRYPTED_KEYS)
	if (err == -ENOKEY)
		err = find_typed(&key_type_encrypted, copy_encrypted, out);
#endif
	return err;
}

#else /* !CONFIG_KEYS: no keyrings, no wrap key */

int diamond_wrap_key_find(u8 out[DMD_WRAP_KEY_SIZE])
{
	return -ENOKEY;
}

#endif
