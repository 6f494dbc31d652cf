// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Error texts, and the mapping from the portable core's codes to errno. */
#include <errno.h>
#include <string.h>

#include "internal.h"

const char *diamond_strerror(int err)
{
	switch (-err) {
	case 0:			return "success";
	case EBADMSG:		return "bad tag (forged or damaged epoch)";
	case EKEYEXPIRED:	return "epoch older than the state (replay or already verified)";
	case ERANGE:		return "epoch too far ahead of the state (beyond max_skip)";
	case EINVAL:		return "malformed or damaged key blob, or malformed epoch body";
	case EMSGSIZE:		return "record, associated data or epoch too large";
	case EPROTO:		return "malformed frame";
	case ENODATA:		return "truncated frame";
	case EILSEQ:		return "garbage between frames (resynchronised)";
	case ENOMSG:		return "incomplete epoch (records missing)";
	case ENOBUFS:		return "evicted: the device's window or the gateway's buffer was full";
	case EBUSY:		return "in use: locked by another process";
	case EUCLEAN:		return "corrupt state file";
	case EXDEV:		return "state file belongs to another device";
	case ENOPKG:		return "kernel support missing (modprobe diamond)";
	case EEXIST:		return "file exists, refusing to overwrite";
	case DIAMOND_EEXHAUSTED: return "epoch index space exhausted";
	case DIAMOND_ENODEVICE:	return "unknown device (no state file)";
	case DIAMOND_EOLDGEN:	return "epoch of an older provisioning generation (device re-provisioned)";
	case DIAMOND_EBACKWARD:	return "would not move the device forward (older or equal state)";
	case DIAMOND_ECHAIN:	return "not a later state of this device's key chain";
	case EMEDIUMTYPE:	return "a packet-mode device: its traffic is opened as packets (open --packet), never as frames";
	case EAGAIN:		return "kernel busy, nothing done (try again)";
	case ENOMEM:		return "out of memory (or the memory cgroup limit)";
	case ENOKEY:		return "no key set (or the last key was refused)";
	case EKEYREJECTED:	return "key rejected by diamond.ko: a wrapped state sealed under another wrap key or damaged, or (export) a key not from custody";
	case EPERM:		return "open-only key (a gateway's): it opens epochs, it never seals";
	case EOPNOTSUPP:	return "the device has group tags (g < b): its units are opened from its frames, not as whole epochs";
	case EINPROGRESS:	return "a group tag frame is due first (diamond_sender_close_group)";
	default:		return strerror(-err);
	}
}

int dlib_core_errno(int rc)
{
	switch (rc) {
	case DMD_OK:		return 0;
	case DMD_EBADMSG:	return -EBADMSG;
	case DMD_EEXPIRED:	return -EKEYEXPIRED;
	case DMD_ESKIP:		return -ERANGE;
	case DMD_ESIZE:		return -EMSGSIZE;
	case DMD_EFULL:		return -DIAMOND_EEXHAUSTED;
	default:		return -EINVAL;
	}
}
