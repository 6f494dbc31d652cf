# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Forgery bounds of a truncated, aggregated Carter-Wegman tag
(Documentation/packet-radio.rst section 6 gives the argument).

One verification of a tag truncated to t bytes, over records of at most
max_len bytes each, succeeds for a forger with probability at most

    suite 1 (GHASH):    (1 + ceil(max_len/16)) * 2^(128 - 8t) / 2^128
    suite 2 (Poly1305): 8 ceil(max_len/16)    * 2^(128 - 8t) / 2^106

(the difference polynomial has degree at most the number of hashed blocks,
and truncation to 8t bits lets 2^(128-8t) full-width differences pass).
A receiver that tries `candidates` reconstructions of a packet's position
multiplies it by that many (a union bound), and a record covered by
`tags_per_record` tags can be released through any of them.
"""

import math


def per_verification(suite, tag_bytes, max_len):
    blocks = math.ceil(max_len / 16)
    lost_bits = 128 - 8 * tag_bytes
    if suite == 1:
        return (1 + blocks) * 2.0 ** lost_bits / 2.0 ** 128
    if suite == 2:
        return 8 * blocks * 2.0 ** lost_bits / 2.0 ** 106
    raise ValueError("suite %r" % suite)


def per_record(suite, tag_bytes, max_len, candidates, tags_per_record):
    """A forged record presented once: every tag covering it, every
    candidate reconstruction tried."""
    return candidates * tags_per_record * per_verification(suite, tag_bytes, max_len)


def bits(prob):
    return -math.log2(prob)
