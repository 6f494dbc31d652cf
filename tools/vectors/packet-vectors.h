/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* gen-vectors --packet: vectors/packet.txt (packet-vectors.c). */
#ifndef PACKET_VECTORS_H
#define PACKET_VECTORS_H

#include <stdio.h>

void generate_packet(FILE *f);

#endif
