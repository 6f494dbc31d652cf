/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* What the whole-epoch receiver and the group receiver share (spec 9). */
#ifndef DIAMOND_CORE_OPEN_H
#define DIAMOND_CORE_OPEN_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/core.h>
#include <diamond/epoch.h>

/*
 * Pass 2 of a verification, branch-free on the verdict: @pt holds the
 * keystream of the body @ct (length prefixes as they are); with @mask all
 * ones (tag matched) XOR the ciphertext over it, with @mask zero wipe it.
 */
void dmd_release(const uint8_t *ct, size_t body_len, uint8_t *pt,
		 uint8_t mask);

#endif
