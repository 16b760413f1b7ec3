"""File names a model can read and say back, whatever bytes they hold.

Linux file names are bytes; Python decodes the ones that are not UTF-8 with surrogate escapes
(`caf\\udce9.py`), and a surrogate cannot be encoded into a tool result, JSON or a prompt. So every name a
tool shows has each such byte written as `\\xNN` (`caf\\xe9.py`), as do control characters, which would
otherwise break a listing's one-name-per-line shape. A name given back in that form is read back to the
real name when the name as written does not exist.
"""

from __future__ import annotations

import re

_ESCAPED_BYTE = re.compile(r"\\x([0-9a-fA-F]{2})")
_SURROGATE = re.compile("[\udc80-\udcff]")
_UNSHOWABLE = re.compile("[\udc80-\udcff\x00-\x1f\x7f]")


def _byte_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00 if code >= 0xDC00 else code:02x}"


def shown_name(name: str) -> str:
    """The name as tools show it: undecodable bytes and control characters as \\xNN."""
    return _UNSHOWABLE.sub(_byte_escape, name)


def printable(text: str) -> str:
    """Any text with surrogate-escaped bytes written as \\xNN, so it can be encoded as UTF-8."""
    return _SURROGATE.sub(_byte_escape, text)


def real_name(shown: str) -> str:
    """The name `shown_name` showed as `shown` (\\xNN back to the byte it stands for)."""

    def unescape(match: re.Match[str]) -> str:
        code = int(match.group(1), 16)
        if code >= 0x80:
            return chr(0xDC00 + code)
        # Only what shown_name escapes comes back; never NUL, never a '/' hidden as \x2f.
        return chr(code) if 0 < code < 0x20 or code == 0x7F else match.group()

    return _ESCAPED_BYTE.sub(unescape, shown)
