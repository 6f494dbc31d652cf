# SPDX-License-Identifier: GPL-2.0 OR MIT
"""The per-message baselines of make bench-air, sealed and opened with real
crypto (python3-cryptography), each framed as its standard says, one
16-byte reading per packet:

- LoRaWAN 1.0.4 unconfirmed data up (LoRaWAN 1.0.4 specification, section
  4): MHDR, FHDR (DevAddr, FCtrl without FOpts, the low 16 bits of FCntUp),
  FPort, FRMPayload encrypted with AppSKey (section 4.3.3), and the MIC,
  the first 4 bytes of AES-CMAC under NwkSKey over B0 and the message
  (section 4.4): 13 header bytes, 29 in all;
- AES-GCM with a 16-byte tag behind the same 9 header bytes (no MIC): the
  header is the associated data, the nonce DevAddr || FCntUp || 0^4: 41;
- an IEEE 802.15.4-2006 data frame with security level 6 (ENC-MIC-64,
  AES-CCM* with an 8-byte MIC): MHR (frame control, sequence number,
  PAN ID, short destination and source, PAN ID compression), the auxiliary
  security header (security control, 4-byte frame counter, key identifier
  mode 0), the encrypted payload, the MIC and the 2-byte FCS (CRC-16,
  ITU-T polynomial): 40. The CCM* nonce is the source's extended address,
  the frame counter and the security level; MHR and auxiliary header are
  authenticated.

The receiver verifies every packet that arrives, rebuilds the counter
(LoRaWAN's 32-bit FCnt from its 16 low bits), refuses replays and checks
the plaintext against the reading sent: a reading is delivered when its
packet arrives and verifies, once.
"""

import hashlib
import struct

from cryptography.hazmat.primitives import cmac
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESCCM, AESGCM

READING = 16
DEV_ADDR = 0x26011f05                   # a LoRaWAN DevAddr, and 802.15.4's short source
NWK_SKEY = bytes(range(16))             # public benchmark keys
APP_SKEY = bytes(range(16, 32))
FPORT = 1
PAN_ID = 0xabcd
SHORT_DST = 0x0000
EXT_SRC = bytes.fromhex("0011223344556677")
SEC_LEVEL = 6                           # ENC-MIC-64


def reading(i):
    """The i-th 16-byte reading of the baselines' sensor."""
    return hashlib.sha256(b"air-bench" + struct.pack("<I", i)).digest()[:READING]


def _aes_block(key, block):
    enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return enc.update(block) + enc.finalize()


def _lorawan_header(fcnt):
    return struct.pack("<BIBHB", 0x40, DEV_ADDR, 0x00, fcnt & 0xffff, FPORT)


def _lorawan_crypt(fcnt, data):
    """FRMPayload encryption (section 4.3.3): A_1 under AppSKey, XOR."""
    a1 = struct.pack("<B4xBIIxB", 0x01, 0, DEV_ADDR, fcnt, 1)
    s = _aes_block(APP_SKEY, a1)
    return bytes(x ^ y for x, y in zip(data, s))


def _lorawan_mic(fcnt, msg):
    b0 = struct.pack("<B4xBIIxB", 0x49, 0, DEV_ADDR, fcnt, len(msg))
    c = cmac.CMAC(algorithms.AES(NWK_SKEY))
    c.update(b0 + msg)
    return c.finalize()[:4]


def _gcm_nonce(fcnt):
    return struct.pack("<II4x", DEV_ADDR, fcnt)


def _mhr(seq):
    # Frame control: data frame, security enabled, PAN ID compression,
    # short destination and source addresses, frame version 2006.
    fcf = 0x0001 | 0x0008 | 0x0040 | (2 << 10) | (1 << 12) | (2 << 14)
    return struct.pack("<HBHHH", fcf, seq & 0xff, PAN_ID, SHORT_DST,
                       DEV_ADDR & 0xffff)


def _aux(counter):
    return struct.pack("<BI", SEC_LEVEL, counter)


def _ccm_nonce(counter):
    return EXT_SRC + struct.pack(">IB", counter, SEC_LEVEL)


def fcs(data):
    """802.15.4's FCS: CRC-16, polynomial x^16 + x^12 + x^5 + 1, LSB first."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return struct.pack("<H", crc)


def seal(kind, i):
    """The packet (PHY payload) carrying reading i, the i-th sent."""
    m = reading(i)
    if kind == "lorawan":
        msg = _lorawan_header(i) + _lorawan_crypt(i, m)
        return msg + _lorawan_mic(i, msg)
    if kind == "gcm":
        hdr = _lorawan_header(i)
        return hdr + AESGCM(APP_SKEY).encrypt(_gcm_nonce(i), m, hdr)
    if kind == "ccm":
        hdr = _mhr(i) + _aux(i)
        frame = hdr + AESCCM(APP_SKEY, tag_length=8).encrypt(_ccm_nonce(i), m, hdr)
        return frame + fcs(frame)
    raise ValueError(kind)


SIZES = {"lorawan": 29, "gcm": 41, "ccm": 40}


class Receiver:
    """One device's gateway side: verify, rebuild the counter, no replays."""

    def __init__(self, kind):
        self.kind = kind
        self.last = -1              # the last counter accepted
        self.delivered = set()
        self.refused = 0

    def _counter16(self, low):
        c = (max(self.last, 0) & ~0xffff) | low
        return c + 0x10000 if c <= self.last else c

    def _open(self, p):
        if len(p) != SIZES[self.kind]:
            return None
        if self.kind == "lorawan":
            n = self._counter16(struct.unpack_from("<H", p, 6)[0])
            if _lorawan_mic(n, p[:-4]) != p[-4:]:       # not constant time: a benchmark
                return None
            return n, _lorawan_crypt(n, p[9:-4])
        if self.kind == "gcm":
            n = self._counter16(struct.unpack_from("<H", p, 6)[0])
            try:
                return n, AESGCM(APP_SKEY).decrypt(_gcm_nonce(n), p[9:], p[:9])
            except Exception:
                return None
        if fcs(p[:-2]) != p[-2:]:
            return None
        n = struct.unpack_from("<I", p, 10)[0]
        try:
            return n, AESCCM(APP_SKEY, tag_length=8).decrypt(
                _ccm_nonce(n), p[14:-2], p[:14])
        except Exception:
            return None

    def feed(self, p):
        got = self._open(p)
        if got is None or got[0] <= self.last or got[1] != reading(got[0]):
            self.refused += 1
            return
        self.last = got[0]
        self.delivered.add(got[0])
