#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# What a process can do with the custody keys in its keyrings (raw
# syscalls through ctypes, no keyutils): one line per probe, "name rc
# errno". Used by host.sh (the loader's keyring) and vm.sh (the ingest's
# view, item 6). Usage: keyprobe.py [--shared] DESC...
# --shared: first a new session keyring with the user keyring linked into
# it, as systemd's KeyringMode=shared gives a service.
import ctypes
import errno
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
NR = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219)}
ADD_KEY, REQUEST_KEY, KEYCTL = NR[os.uname().machine]
KEYCTL_JOIN, KEYCTL_SETPERM, KEYCTL_LINK, KEYCTL_READ = 1, 5, 8, 11
SESSION, USER = -3, -4


def call(*a):
    r = libc.syscall(*a)
    return r, ctypes.get_errno() if r < 0 else 0


def show(name, r):
    print(name, r[0], errno.errorcode.get(r[1], r[1]) if r[1] else "0")


args = sys.argv[1:]
if args and args[0] == "--shared":
    args = args[1:]
    show("join", call(KEYCTL, KEYCTL_JOIN, None))
    show("link-user", call(KEYCTL, KEYCTL_LINK, USER, SESSION))
for desc in args:
    r = call(REQUEST_KEY, b"logon", desc.encode(), None, 0)
    show("find " + desc, r)
    if r[0] < 0:
        continue
    buf = ctypes.create_string_buffer(512)
    show("read " + desc, call(KEYCTL, KEYCTL_READ, r[0], buf, 512))
    show("setperm " + desc, call(KEYCTL, KEYCTL_SETPERM, r[0], 0x3f3f0000))
if "--shared" not in sys.argv:
    show("add-session", call(ADD_KEY, b"logon", b"diamond:wrap", b"x" * 32,
                             32, SESSION))
