// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Two devices for libdiamond's gateway tests (test_stage, test_fence):
 * device 5 ungrouped and device 6 grouped (g = 2), both suite 2 with
 * b = 4, their state files in a new store and their first three epochs
 * sealed by the portable core as frames, one buffer per device and epoch.
 */
#ifndef TWO_DEVICES_H
#define TWO_DEVICES_H

#include <stddef.h>
#include <stdint.h>

#define TWO_DEVICES_B		4
#define TWO_DEVICES_EPOCHS	3

struct two_devices {
	uint8_t frames[2][TWO_DEVICES_EPOCHS][1024];
	size_t len[2][TWO_DEVICES_EPOCHS];
};

extern const uint32_t two_devices_ids[2];
extern const uint16_t two_devices_groups[2];

/* Both devices' state files in @dir (a new store), and their frames. */
int two_devices_make(struct two_devices *t, const char *dir);
/* The epoch device @id's state file in @dir holds, or -1. */
int64_t two_devices_disk_epoch(const char *dir, uint32_t id);

#endif
