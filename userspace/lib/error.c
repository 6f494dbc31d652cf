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
	case EINVAL:		return "malformed key blob or epoch body";
	case EMSGSIZE:		return "record, associated data or epoch too large";
	case EPROTO:		return "malformed frame";
	case ENODATA:		return "truncated frame";
	case EILSEQ:		return "garbage between frames (resynchronised)";
	case ENOMSG:		return "incomplete epoch (records missing)";
	case ENOENT:		return "unknown device (no state file)";
	case EUCLEAN:		return "corrupt state file";
	case EXDEV:		return "state file belongs to another device";
	case ENOPKG:		return "kernel support missing (modprobe diamond)";
	case EEXIST:		return "file exists, refusing to overwrite";
	/* The kernel's -ENOSPC means only this (kernel-api.rst, errno). */
	case ENOSPC:		return "epoch index space exhausted";
	case EAGAIN:		return "kernel busy, nothing done (try again)";
	case ENOMEM:		return "out of memory (or the memory cgroup limit)";
	case ENOKEY:		return "no key set (or the last key was refused)";
	default:		return strerror(-err);
	}
}

int _diamond_core_errno(int rc)
{
	switch (rc) {
	case DMD_OK:		return 0;
	case DMD_EBADMSG:	return -EBADMSG;
	case DMD_EEXPIRED:	return -EKEYEXPIRED;
	case DMD_ESKIP:		return -ERANGE;
	case DMD_ESIZE:		return -EMSGSIZE;
	case DMD_EFULL:		return -ENOSPC;
	default:		return -EINVAL;
	}
}
