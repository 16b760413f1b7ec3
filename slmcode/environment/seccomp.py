"""A seccomp filter that keeps set-uid and set-gid bits off every file a sandboxed command touches.

Why a filter and not only the mount's nosuid: nosuid stops a bit from working inside, but a file a command
makes is owned outside by the invoking user (root when slmcode runs as root), and a file's owner may set the
bit with no capability at all: `chmod 4755` would leave a set-uid-root program in the workspace for anyone on
the host. The filter refuses (EPERM) chmod, fchmod, fchmodat, fchmodat2, open, openat, creat, mknod and
mknodat whenever the mode asks for S_ISUID or S_ISGID; openat2 (its mode is in a struct a filter cannot read)
and io_uring (which opens files beyond any filter's sight) answer ENOSYS, so callers fall back to openat.
The keyring calls (add_key, request_key, keyctl) answer ENOSYS too: a user namespace that root creates maps back
to kernel uid 0, so a jailed command reached the host root's keyrings through them (hiding /proc/keys does not
cover the syscalls); ENOSYS reads to a program as a kernel built without keys.
A walk of the tree after every command would cost 100-500 ms on a 25,000-file workspace; the filter costs
nothing per command. Where no filter is known for the machine's architecture, aftercheck's walk clears the
bits instead (ossandbox decides).

bwrap loads the filter from a file descriptor (`--seccomp FD`); a one-line `sh` in front of bwrap opens the
filter file on that descriptor, so callers need not pass descriptors through subprocess.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import platform
import struct
import tempfile
from functools import lru_cache

FD = 9  # the descriptor bwrap reads the filter from
SETID = 0o6000
EPERM, ENOSYS = 1, 38
RET_ALLOW, RET_ERRNO = 0x7FFF0000, 0x00050000
LD_ABS_W, JEQ, JSET, JGE, RET = 0x20, 0x15, 0x45, 0x35, 0x06
ARCH_OFFSET, NR_OFFSET = 4, 0
X32_BIT = 0x40000000


def _arg(index: int) -> int:
    return 16 + 8 * index  # seccomp_data.args[index], its low 32 bits (little-endian)


# Per audit arch: {syscall number: index of its mode argument, or None to refuse it outright with ENOSYS}.
TABLES: dict[int, dict[int, int | None]] = {
    # x86_64; then add_key, request_key, keyctl
    0xC000003E: {90: 1, 91: 1, 268: 2, 452: 2, 2: 2, 257: 3, 85: 1, 133: 1, 259: 2, 437: None, 425: None}
    | {248: None, 249: None, 250: None},
    # i386; then add_key, request_key, keyctl
    0x40000003: {15: 1, 94: 1, 306: 2, 452: 2, 5: 2, 295: 3, 8: 1, 14: 1, 297: 2, 437: None, 425: None}
    | {286: None, 287: None, 288: None},
    # aarch64; then add_key, request_key, keyctl
    0xC00000B7: {52: 1, 53: 2, 452: 2, 56: 3, 33: 2, 437: None, 425: None} | {217: None, 218: None, 219: None},
}
NATIVE = {"x86_64": (0xC000003E, 0x40000003), "aarch64": (0xC00000B7,)}


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def _arch_block(table: dict[int, int | None], x32: bool) -> list[tuple[int, int, int, int]]:
    """The checks for one architecture, entered with the arch word loaded; falls through to ALLOW."""
    out: list[tuple[int, int, int, int]] = [(LD_ABS_W, 0, 0, NR_OFFSET)]
    if x32:  # the x32 ABI's numbers carry this bit: refuse them all (no x32 program is expected here)
        out += [(JGE, 0, 1, X32_BIT), (RET, 0, 0, RET_ERRNO | ENOSYS)]
    for nr, arg in table.items():
        if arg is None:
            out += [(JEQ, 0, 1, nr), (RET, 0, 0, RET_ERRNO | ENOSYS)]
        else:  # nr matches: load its mode; any set-id bit refuses; then reload nr for the next comparison
            out += [
                (JEQ, 0, 4, nr),
                (LD_ABS_W, 0, 0, _arg(arg)),
                (JSET, 0, 1, SETID),
                (RET, 0, 0, RET_ERRNO | EPERM),
                (RET, 0, 0, RET_ALLOW),
            ]
    return [*out, (RET, 0, 0, RET_ALLOW)]


def program(machine: str) -> bytes | None:
    """The compiled filter for `machine` (platform.machine()), or None when there is no table for it."""
    arches = NATIVE.get(machine)
    if not arches:
        return None
    blocks = [_arch_block(TABLES[a], x32=(a == 0xC000003E)) for a in arches]
    insns: list[tuple[int, int, int, int]] = [(LD_ABS_W, 0, 0, ARCH_OFFSET)]
    # Dispatch on the arch word: each test jumps over the blocks before the one it names.
    offsets, total = [], 0
    for block in blocks:
        offsets.append(total)
        total += len(block)
    tests = len(arches) + 1  # a JEQ per arch, then the refusal of any other arch
    for i, arch in enumerate(arches):
        insns.append((JEQ, tests - 1 - i + offsets[i], 0, arch))
    insns.append((RET, 0, 0, RET_ERRNO | ENOSYS))
    for block in blocks:
        insns += block
    return b"".join(_insn(*i) for i in insns)


@lru_cache(maxsize=1)
def filter_file() -> str | None:
    """A private file holding this machine's filter (made once per process, removed at exit), or None."""
    compiled = program(platform.machine())
    if compiled is None:
        return None
    fd, path = tempfile.mkstemp(prefix="slmcode-seccomp-", suffix=".bpf")
    with os.fdopen(fd, "wb") as handle:
        handle.write(compiled)
    atexit.register(_remove, path)
    return path


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
