/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The Semtech UDP packet forwarder protocol (GWMP, version 2), the side
 * of it a network server speaks: PUSH_DATA in, PUSH_ACK out; PULL_DATA
 * in, PULL_ACK out (semtech.c).
 */
#ifndef DIAMONDCTL_SEMTECH_H
#define DIAMONDCTL_SEMTECH_H

#include <stddef.h>
#include <stdint.h>

#define GWMP_MAX_PHY	255	/* a LoRa PHY payload */

/* One received packet (an "rxpk" object) and its metadata as JSON. */
typedef void (*gwmp_rx_fn)(void *arg, const uint8_t *phy, size_t len,
			   const char *meta);

/*
 * One datagram from a packet forwarder: the acknowledgement to send back
 * to its sender in @ack (*@acklen bytes, 0 for none), and @fn called for
 * every rxpk whose "data" decodes. Returns the rxpk taken, or -EPROTO for
 * a datagram that is not GWMP v2 (nothing to send back) or whose JSON is
 * malformed (acknowledged all the same: the gateway must not resend it).
 */
int gwmp_datagram(const uint8_t *d, size_t len, uint8_t ack[4],
		  size_t *acklen, gwmp_rx_fn fn, void *arg);

#endif
