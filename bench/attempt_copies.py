"""Peak disk of best-of-N attempt copies: a workspace holding one large file, copied once per attempt as
nodes/attempts.py copies it, byte for byte (the old copy) or cloned (copy_workspace), on the filesystem of the
folder given. Prints the disk the copies took at their peak (both present), from statvfs.

    python bench/attempt_copies.py FOLDER [--mb 100] [--attempts 2]
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from pathlib import Path

from slmcode.nodes.attempts import COPY_SKIP, copy_workspace


def used(folder: Path) -> int:
    os.sync()
    info = os.statvfs(folder)
    return (info.f_blocks - info.f_bfree) * info.f_frsize


def byte_copy(real: Path, target: Path) -> None:
    shutil.copytree(real, target, symlinks=True, ignore=shutil.ignore_patterns(*COPY_SKIP))


def peak(root: Path, copier, attempts: int) -> int:
    real = root / "ws"
    before = used(root)
    copies = [root / f"attempt-{k}" for k in range(1, attempts + 1)]
    for copy in copies:
        copier(real, copy)
    taken = used(root) - before
    for copy in copies:
        shutil.rmtree(copy)
    return taken


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", type=Path)
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--attempts", type=int, default=2)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(dir=args.folder))
    try:
        (root / "ws" / "src").mkdir(parents=True)
        (root / "ws" / "src" / "app.py").write_text("def f():\n    return 1\n")
        with (root / "ws" / "data.bin").open("wb") as big:
            for _ in range(args.mb):
                big.write(os.urandom(1 << 20))
        for name, copier in (("byte copy (before)", byte_copy), ("copy_workspace (after)", copy_workspace)):
            taken = peak(root, copier, args.attempts)
            print(f"{name}: {args.attempts} copies of a {args.mb} MB workspace took {taken / 2**20:.1f} MB at peak")
    finally:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
