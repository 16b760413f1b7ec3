"""Run as a program (stdlib only, `python -I idmap_launch.py UID GID STAGE ROOT... -- BWRAP ARGS...`) in front
of bwrap when slmcode runs as root, so a command's kernel uid is UID, not 0.

bwrap's user namespace alone shows a command uid 65534 while the kernel still sees uid 0: whatever checks the
uid rather than a capability lets it through (files root owns on paths the jail can see, /proc/sys, the
keyrings). Here the command really is UID. Each ROOT (the workspace, the scratch folder, the toolchain folders)
is cloned as an idmapped mount (mount_setattr, Linux 5.12) that shows the files root owns as UID's and writes
UID's files as root's, so the user's files keep their owner and the command can still change them. The clones
are placed under STAGE (a fresh tmpfs in a private mount namespace: nothing of it reaches the host), where
bwrap, run as UID, binds them; its arguments already name STAGE/<n> for ROOT n.

Where a root cannot be idmapped (a file system without support), every root is staged as a plain bind and the
command keeps uid 0 as before: the exit says nothing, and `slmcode doctor` reports which of the two applies.
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys

CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
MS_REC, MS_PRIVATE = 0x4000, 1 << 18
OPEN_TREE_CLONE, AT_RECURSIVE, AT_EMPTY_PATH, AT_FDCWD = 1, 0x8000, 0x1000, -100
MOUNT_ATTR_IDMAP, MOVE_MOUNT_F_EMPTY_PATH = 0x00100000, 4
SYS_OPEN_TREE, SYS_MOVE_MOUNT, SYS_MOUNT_SETATTR = 428, 429, 442  # x86_64 and aarch64 share these numbers
EXIT_SETUP = 125  # the jail could not be set up: the command did not run

libc = ctypes.CDLL(None, use_errno=True)


def check(result: int, what: str) -> int:
    if result < 0:
        raise OSError(ctypes.get_errno(), f"{what}: {os.strerror(ctypes.get_errno())}")
    return result


def mapping_namespace(uid: int, gid: int) -> int:
    """A user namespace whose map shows uid and gid 0 as (uid, gid): the idmap of the clones. A child holds it
    open while the descriptor is taken, then exits."""
    ready, go = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(go)
        libc.unshare(CLONE_NEWUSER)
        os.read(ready, 1)
        os._exit(0)
    os.close(ready)
    try:
        for _ in range(200):  # the child's unshare: its namespace differs from ours once it has run
            if os.readlink(f"/proc/{child}/ns/user") != os.readlink("/proc/self/ns/user"):
                break
            os.sched_yield()
        with open(f"/proc/{child}/uid_map", "w") as out:
            out.write(f"0 {uid} 1")
        with open(f"/proc/{child}/setgroups", "w") as out:
            out.write("deny")
        with open(f"/proc/{child}/gid_map", "w") as out:
            out.write(f"0 {gid} 1")
        return os.open(f"/proc/{child}/ns/user", os.O_RDONLY | os.O_CLOEXEC)
    finally:
        os.write(go, b"x")
        os.waitpid(child, 0)


def clone(root: str) -> int:
    return check(
        libc.syscall(SYS_OPEN_TREE, AT_FDCWD, root.encode(), OPEN_TREE_CLONE | AT_RECURSIVE | os.O_CLOEXEC), root
    )


def idmap(tree: int, namespace: int) -> None:
    attr = ctypes.create_string_buffer(struct.pack("QQQQ", MOUNT_ATTR_IDMAP, 0, 0, namespace))
    check(libc.syscall(SYS_MOUNT_SETATTR, tree, b"", AT_EMPTY_PATH | AT_RECURSIVE, attr, 32), "idmap")


def main(argv: list[str]) -> None:
    split = argv.index("--")
    uid, gid, stage, roots, command = int(argv[0]), int(argv[1]), argv[2], argv[3:split], argv[split + 1 :]
    try:
        check(libc.unshare(CLONE_NEWNS), "unshare")
        check(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "private mounts")
        trees = [clone(root) for root in roots]
        try:
            namespace = mapping_namespace(uid, gid)
            for tree in trees:
                idmap(tree, namespace)
            mapped = True
        except OSError:
            trees, mapped = [clone(root) for root in roots], False  # fresh clones: none half idmapped
        check(libc.mount(b"slmcode-stage", stage.encode(), b"tmpfs", 0, b"mode=0755"), "stage")
        for n, tree in enumerate(trees):
            target = os.path.join(stage, str(n))
            os.mkdir(target)
            check(libc.syscall(SYS_MOVE_MOUNT, tree, b"", AT_FDCWD, target.encode(), MOVE_MOUNT_F_EMPTY_PATH), target)
        if mapped:
            os.setgroups([])
            os.setresgid(gid, gid, gid)
            os.setresuid(uid, uid, uid)
    except OSError as exc:
        sys.stderr.write(f"slmcode: the sandbox could not stage its folders: {exc}\n")
        sys.exit(EXIT_SETUP)
    os.execv(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
