// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What the receive path reports: every event goes through here, which
 * counts it (gateway and device statistics) and hands it to the caller's
 * callback. Frames dropped are only counted. The stage that decides
 * (decide.c) calls these; nothing here decides anything. Storage failures
 * are not events: the call fails with the first (dlib_gw_fail()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void dlib_drop_frames(struct diamond_gw *gw, struct dlib_dev *d,
		      uint32_t n)
{
	gw->stats.frames_dropped += n;
	if (d)
		d->stats.frames_dropped += n;
}

void dlib_gw_event(struct diamond_gw *gw, int kind, int err,
		   uint32_t dev, uint64_t epoch, uint32_t count)
{
	struct diamond_event ev = {
		.kind = kind, .err = err, .device_id = dev, .epoch = epoch,
		.count = count, .detail = gw->detail,
	};
	struct dlib_dev *d = kind == DIAMOND_EV_FRAME ? NULL :
			      dlib_dev_find(gw, dev);
	int reason = diamond_reason(err);

	if (kind == DIAMOND_EV_VERIFIED) {
		gw->stats.verified++;
		if (d) {
			d->stats.verified++;
			d->stats.last_epoch = epoch;
		}
	} else if (kind == DIAMOND_EV_REJECTED) {
		gw->stats.rejected++;
		gw->stats.rejected_by[reason]++;
		if (d)
			d->stats.rejected_by[reason]++;
	} else {
		gw->stats.frame_errors++;
	}
	if (gw->cbs.event)
		gw->cbs.event(gw->cbs.arg, &ev);
	gw->detail[0] = 0;
}

/* Counters and the callback for a group event. */
void dlib_group_event(struct diamond_gw *gw, struct dlib_dev *d,
		      struct diamond_event *ev)
{
	uint32_t n = ev->ngroups ? ev->ngroups : 1;	/* groups it covers */

	ev->device_id = d->id;
	ev->detail = gw->detail;
	if (ev->kind == DIAMOND_EV_GROUP_VERIFIED) {
		gw->stats.groups_verified++;
		d->stats.groups_verified++;
	} else if (ev->kind == DIAMOND_EV_GROUP_REJECTED &&
		   ev->err != -EKEYEXPIRED) {
		gw->stats.groups_rejected += n;
		d->stats.groups_rejected += n;
	}
	if (gw->cbs.event)
		gw->cbs.event(gw->cbs.arg, ev);
	gw->detail[0] = 0;
}

int dlib_gw_fail(struct diamond_gw *gw, int err, const char *what,
		 const char *path)
{
	if (!gw->fatal) {
		gw->fatal = err;
		snprintf(gw->failure, sizeof(gw->failure), "%s%s%s", what,
			 *path ? " " : "", path);
	}
	return err;
}

const char *diamond_gw_failure(const struct diamond_gw *gw)
{
	return gw->failure;
}

int diamond_reason(int err)
{
	switch (-err) {
	case EBADMSG:		return DIAMOND_REASON_BAD_TAG;
	case EKEYEXPIRED:	return DIAMOND_REASON_REPLAY;
	case ERANGE:		return DIAMOND_REASON_TOO_FAR;
	case ENOMSG:		return DIAMOND_REASON_INCOMPLETE;
	case EMSGSIZE:		return DIAMOND_REASON_TOO_LARGE;
	case ENOBUFS:		return DIAMOND_REASON_EVICTED;
	case DIAMOND_ENODEVICE:	return DIAMOND_REASON_UNKNOWN_DEVICE;
	case DIAMOND_EOLDGEN:	return DIAMOND_REASON_OLD_GENERATION;
	case EOPNOTSUPP:	return DIAMOND_REASON_UNSUPPORTED;
	case EUCLEAN: case EXDEV: case EIO: case ENOSPC: case EDQUOT:
	case EACCES: case EROFS: case ENOENT:
				return DIAMOND_REASON_STATE;
	default:		return DIAMOND_REASON_OTHER;
	}
}

const char *diamond_reason_name(int reason)
{
	static const char *const names[DIAMOND_REASON_COUNT] = {
		"bad_tag", "replay", "too_far", "incomplete", "too_large",
		"evicted", "unknown_device", "old_generation", "state", "other",
		"unsupported",
	};

	return reason >= 0 && reason < DIAMOND_REASON_COUNT ? names[reason] :
	       "other";
}
