"""Walking, copying and removing a folder tree without recursion: Python 3.11's os.walk, shutil.copytree and
shutil.rmtree call themselves once per folder level, so a tree 1,000 folders deep (a repository can ship one; a
command can make one) raised RecursionError in whatever walked it. These keep their own stack, as 3.12's
os.walk does."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import suppress


def walk(top: str | os.PathLike[str]) -> Iterator[tuple[str, list[str], list[str]]]:
    """(folder, its folder names, its other names) top-down, as os.walk(top) yields them: a caller may prune
    or reorder the folder list in place; links to folders are listed among the folders but never entered;
    unreadable folders are skipped."""
    stack = [os.fspath(top)]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError:
            continue
        dirs: list[str] = []
        names: list[str] = []
        links: set[str] = set()
        for entry in listed:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            (dirs if is_dir else names).append(entry.name)
            if is_dir and entry.is_symlink():
                links.add(entry.name)
        yield folder, dirs, names
        stack.extend(os.path.join(folder, d) for d in reversed(dirs) if d not in links)


def copy_tree(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    skip: frozenset[str],
    copy_file: Callable[[str, str], None],
) -> list[str]:
    """shutil.copytree(source, target, symlinks=True) without its recursion: links copied as links, names in
    `skip` left out at any depth, each other file through `copy_file`. What could not be made (a path past the
    system's length limit, say) is left out; its relative paths are returned."""
    source, target = os.fspath(source), os.fspath(target)
    missed: list[str] = []
    os.makedirs(target)
    for folder, dirs, names in walk(source):
        rel = os.path.relpath(folder, source)
        into = target if rel == "." else os.path.join(target, rel)
        dirs[:] = [d for d in dirs if d not in skip]
        for name in [*dirs, *(n for n in names if n not in skip)]:
            path, dest = os.path.join(folder, name), os.path.join(into, name)
            try:
                if os.path.islink(path):
                    os.symlink(os.readlink(path), dest)
                elif name in dirs:
                    os.mkdir(dest)
                else:
                    copy_file(path, dest)
            except OSError:
                missed.append(os.path.relpath(path, source))
                if name in dirs:
                    dirs.remove(name)
    return missed


def remove_tree(path: str | os.PathLike[str]) -> None:
    """shutil.rmtree(path, ignore_errors=True) without its recursion: links are removed, never followed; what
    cannot be removed stays."""
    path = os.fspath(path)
    if os.path.islink(path) or not os.path.isdir(path):
        with suppress(OSError):
            os.unlink(path)
        return
    folders: list[str] = []
    for folder, dirs, names in walk(path):
        folders.append(folder)
        for name in names + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
            with suppress(OSError):
                os.unlink(os.path.join(folder, name))
    for folder in reversed(folders):
        with suppress(OSError):
            os.rmdir(folder)
