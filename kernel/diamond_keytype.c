// SPDX-License-Identifier: GPL-2.0
/*
 * The key type "diamond" (Documentation/kernel-api.rst, "The key type
 * diamond"): the keyring keys of custody, the wrap key "diamond:wrap" and
 * a device's key "diamond:<id>", usable by this module and nothing else.
 *
 * Why a type of our own: from 6.2 AF_ALG keys any algorithm with any
 * user, logon, encrypted or trusted key its caller can search
 * (ALG_SET_KEY_BY_KEY_SERIAL), and dm-crypt, ecryptfs and the rest take
 * keys of those types by name too. A gateway's ingest must find its keys
 * (search) to hand them to the module, so with a logon key it could key
 * chacha20 with the wrap key and unwrap every stored state. Every such
 * consumer names the types it takes; none names this one, and the type
 * has no read and no update method, so a key of it can be found, linked,
 * revoked and described, never read back, rewritten or used elsewhere.
 *
 * Only CAP_SYS_ADMIN of the initial user namespace may add one (the
 * loader, root), so a process cannot plant a key that shadows the
 * loader's. A key still counts only when root owns it (key_owned()):
 * request_key() with callout info constructs a key owned by its caller,
 * which /sbin/request-key, running as root, could then instantiate.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/key-type.h>
#include <linux/kernel.h>
#include <linux/rwsem.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uidgid.h>

#include "diamond.h"

#if IS_ENABLED(CONFIG_KEYS)

/* A key's bytes: the wrap key, or a device's setkey input. */
struct diamond_key_payload {
	unsigned int len;
	u8 data[];
};

/* "diamond:wrap" or "diamond:<id>", the id in decimal without zeros ahead. */
static int keytype_vet_description(const char *desc)
{
	const char *id = desc + strlen(DMD_KEY_DESC_PREFIX);
	u32 v;

	if (strncmp(desc, DMD_KEY_DESC_PREFIX, strlen(DMD_KEY_DESC_PREFIX)))
		return -EINVAL;
	if (!strcmp(desc, DMD_WRAP_KEY_DESC))
		return 0;
	if (*id == '0' && id[1])
		return -EINVAL;
	return kstrtou32(id, 10, &v) ? -EINVAL : 0;
}

/* The payload sizes a key of @desc may have. */
static bool keytype_len_ok(const char *desc, size_t len)
{
	if (desc && !strcmp(desc, DMD_WRAP_KEY_DESC))
		return len == DMD_WRAP_KEY_SIZE;
	return len >= DMD_BLOB_SIZE(DMD_KEY_MIN) && len <= DMD_WRAP_INNER_MAX;
}

static int keytype_preparse(struct key_preparsed_payload *prep)
{
	struct diamond_key_payload *p;

	if (!ns_capable(&init_user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	if (!prep->data || !keytype_len_ok(prep->orig_description,
					   prep->datalen))
		return -EINVAL;
	p = kmalloc(struct_size(p, data, prep->datalen), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->len = prep->datalen;
	memcpy(p->data, prep->data, prep->datalen);
	prep->payload.data[0] = p;
	prep->quotalen = prep->datalen;
	return 0;
}

static void keytype_free_preparse(struct key_preparsed_payload *prep)
{
	kfree_sensitive(prep->payload.data[0]);
}

static void keytype_destroy(struct key *key)
{
	kfree_sensitive(key->payload.data[0]);
}

/* /proc/keys: the description and, once instantiated, the length. */
static void keytype_describe(const struct key *key, struct seq_file *m)
{
	const struct diamond_key_payload *p = key->payload.data[0];

	seq_puts(m, key->description);
	if (key_is_positive(key) && p)
		seq_printf(m, ": %u", p->len);
}

/* No .read, no .update: keyctl read and update are -EOPNOTSUPP. */
static struct key_type diamond_key_type = {
	.name = DMD_KEY_TYPE,
	.vet_description = keytype_vet_description,
	.preparse = keytype_preparse,
	.free_preparse = keytype_free_preparse,
	.instantiate = generic_key_instantiate,
	.destroy = keytype_destroy,
	.describe = keytype_describe,
};

/* Root's: added by the loader, not constructed for another caller. */
static bool key_owned(const struct key *key)
{
	return uid_eq(key->uid, GLOBAL_ROOT_UID);
}

/*
 * The payload of the key @desc that the caller's keyrings hold, into @out
 * (@size bytes): its length; -ENOKEY when there is none, it is not root's
 * or it does not fit; else what request_key() said (-EACCES,
 * -EKEYREVOKED, -EKEYEXPIRED). Copied under the key's semaphore, the
 * reference dropped at once. Process context, may sleep.
 */
int diamond_keytype_copy(const char *desc, u8 *out, unsigned int size)
{
	const struct diamond_key_payload *p;
	struct key *key;
	int n = -ENOKEY;

	/* No callout info: a search, never an upcall. */
	key = request_key(&diamond_key_type, desc, NULL);
	if (IS_ERR(key))
		return PTR_ERR(key);
	down_read(&key->sem);
	p = key->payload.data[0];
	if (key_is_positive(key) && key_owned(key) && p && p->len <= size) {
		memcpy(out, p->data, p->len);
		n = p->len;
	}
	up_read(&key->sem);
	key_put(key);
	return n;
}

int diamond_keytype_register(void)
{
	return register_key_type(&diamond_key_type);
}

/* Every key of the type goes with it: the loader adds them again. */
void diamond_keytype_unregister(void)
{
	unregister_key_type(&diamond_key_type);
}

#else /* !CONFIG_KEYS: no keyrings, no keys by reference */

int diamond_keytype_copy(const char *desc, u8 *out, unsigned int size)
{
	return -ENOKEY;
}

int diamond_keytype_register(void)
{
	return 0;
}

void diamond_keytype_unregister(void)
{
}

#endif
