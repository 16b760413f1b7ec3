"""Text files as the tools see them: what counts as binary, which encoding, and reads that stay bounded.

UTF-8 first; a file that is not valid UTF-8 but has no NUL bytes and few control bytes (Latin-1 or cp1252
source, say) is text decoded as Latin-1, which maps every byte to one character and back, so an edit
written in the same encoding leaves every byte outside the edited region as it was. A file too big to read
whole is read as a slice: at most `keep_chars` characters of each shown line are read, the rest of a long
line is skipped in chunks, and lines are counted by streaming, so a 300 MB one-line file costs one chunk of
memory, not 300 MB. Every byte comes through the task's Environment (`read`, a chunk at a time for a slice), so
a file is read wherever the workspace lives.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from slmcode.environment import Entry, Environment, refusals
from slmcode.environment.containment import Refusal
from slmcode.environment.filenames import shown_name
from slmcode.tools import prompts

BINARY_SAMPLE_BYTES = 8192
CHUNK_BYTES = 1 << 20
PIECE_BYTES = 256 << 10  # one Environment.read of a big file's slice
UTF8 = "utf-8"
FALLBACK = "latin-1"  # round-trips every byte
# Control bytes other than tab, newlines, form feed and escape; above this share of a sample, a file is binary.
CONTROL_BYTES = frozenset(range(0x20)) - frozenset(b"\t\n\r\f\v\x1b\b")
CONTROL_SHARE = 0.10


def _valid_utf8(sample: bytes, partial: bool) -> bool:
    try:
        sample.decode(UTF8)
    except UnicodeDecodeError as exc:
        return partial and exc.start >= len(sample) - 4  # a sample may cut a multi-byte character
    return True


def looks_binary(sample: bytes) -> bool:
    """NUL bytes, or many control bytes in text that is not UTF-8, mean binary."""
    if b"\x00" in sample:
        return True
    if _valid_utf8(sample, partial=True):
        return False
    controls = sum(1 for byte in sample if byte in CONTROL_BYTES)
    return controls > CONTROL_SHARE * len(sample)


def sample_encoding(sample: bytes, partial: bool = False) -> str:
    return UTF8 if _valid_utf8(sample, partial) else FALLBACK


def decode(data: bytes) -> tuple[str, str]:
    """The text and the encoding it was read in."""
    encoding = sample_encoding(data)
    return data.decode(encoding), encoding


def require_file(entry: Entry) -> int:
    """Refuse missing paths and folders; return the file's size."""
    if entry.kind == "missing":
        raise Refusal(refusals.NOT_FOUND.format(path=shown_name(entry.path)))
    if entry.kind == "dir":
        raise Refusal(refusals.NOT_A_FILE.format(path=shown_name(entry.path)))
    return entry.size


def read_text(env: Environment, entry: Entry, max_bytes: int) -> tuple[str, str]:
    """A whole text file and its encoding, refusing binary files and files over max_bytes."""
    size = require_file(entry)
    if size > max_bytes:
        raise Refusal(prompts.TOO_BIG.format(path=shown_name(entry.path), size=size, limit=max_bytes))
    try:
        data = env.read(entry.path)
    except ValueError as exc:  # swapped for a link out or a FIFO since the stat: the open refused it
        raise Refusal(str(exc)) from None
    if looks_binary(data[:BINARY_SAMPLE_BYTES]):
        raise Refusal(prompts.BINARY_FILE.format(path=shown_name(entry.path), size=size))
    return decode(data)


def clip_line(line: str, limit: int) -> str:
    return line if len(line) <= limit else f"{line[:limit]}… [{len(line) - limit} chars cut]"


@dataclass(frozen=True)
class Slice:
    """Lines `offset`.. of a big file, each already cut to `keep_chars`; total counts every line."""

    lines: list[str]
    total: int
    encoding: str


def _skip_line(handle, first: bytes, step: int) -> int:  # type: ignore[no-untyped-def]
    """Read past the rest of a line whose first part is `first`; returns the bytes skipped."""
    skipped, part = 0, first
    while part and not part.endswith(b"\n"):
        part = handle.readline(step)
        skipped += len(part)
    return skipped


class _EnvironmentFile(io.RawIOBase):
    """A file of the Environment read a piece at a time (Environment.read with an offset), so a buffered reader
    over it streams lines as a host file would."""

    def __init__(self, env: Environment, path: str) -> None:
        super().__init__()
        self.env, self.path, self.position = env, path, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence not in (io.SEEK_SET, io.SEEK_CUR):
            raise io.UnsupportedOperation("seek from the end")
        self.position = offset if whence == io.SEEK_SET else self.position + offset
        return self.position

    def tell(self) -> int:
        return self.position

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        # At most a piece per call: the bytes read are held twice until copied, and a slice stays a few MB.
        try:
            data = self.env.read(self.path, self.position, min(len(buffer), PIECE_BYTES))
        except ValueError as exc:  # swapped since the stat, as in read_text
            raise Refusal(str(exc)) from None
        buffer[: len(data)] = data
        self.position += len(data)
        return len(data)


def read_slice(env: Environment, entry: Entry, offset: int, limit: int, keep_chars: int) -> Slice:
    """`limit` lines from line `offset`, reading at most ~4 bytes per shown character plus one chunk."""
    keep_bytes = keep_chars * 4 + 4  # a UTF-8 character is at most 4 bytes
    with io.BufferedReader(_EnvironmentFile(env, entry.path), PIECE_BYTES) as handle:
        sample = handle.read(BINARY_SAMPLE_BYTES)
        if looks_binary(sample):
            raise Refusal(prompts.BINARY_FILE.format(path=shown_name(entry.path), size=entry.size))
        encoding = sample_encoding(sample, partial=True)
        handle.seek(0)
        number, lines = 0, list[str]()
        while len(lines) < limit:
            head = handle.readline(keep_bytes)
            if not head:
                break
            number += 1
            extra = _skip_line(handle, head, CHUNK_BYTES)
            if number >= offset:
                lines.append(_cut(head, extra, encoding, keep_chars))
        total = number + _count_lines(handle)
    return Slice(lines=lines, total=total, encoding=encoding)


def _cut(head: bytes, extra: int, encoding: str, keep_chars: int) -> str:
    text = head.decode(encoding, errors="replace").rstrip("\r\n")
    if extra == 0 and len(text) <= keep_chars:
        return text
    cut_bytes = extra + len(text[keep_chars:].encode(encoding, errors="replace"))
    return f"{text[:keep_chars]}… [{cut_bytes} bytes cut]"


def _count_lines(handle) -> int:  # type: ignore[no-untyped-def]
    """Lines left from the handle's position, counted a chunk at a time (a last line without newline counts)."""
    count, last = 0, b"\n"
    while chunk := handle.read(CHUNK_BYTES):
        count += chunk.count(b"\n")
        last = chunk[-1:]
    return count + (last != b"\n")
