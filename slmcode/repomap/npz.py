"""A dataclass of numpy arrays and string lists as one stored blob (the map cache's graph and name tables): the
arrays as an .npz archive, the strings as one JSON array beside them. JSON escapes a surrogate (a file name that
is not UTF-8) and reads it back as the same surrogate; nothing is pickled, so a tampered cache cannot run code."""

from __future__ import annotations

import io
import json
from dataclasses import fields
from typing import Any

import numpy as np


def to_npz(item: Any, labels: tuple[str, ...]) -> bytes:
    """`item`'s fields: those named in `labels` as JSON, every other one as an array."""
    arrays = {f.name: getattr(item, f.name) for f in fields(item) if f.name not in labels}
    text = json.dumps([getattr(item, name) for name in labels]).encode("ascii")
    out = io.BytesIO()
    np.savez(out, labels=np.frombuffer(text, dtype=np.uint8), **arrays)
    return out.getvalue()


def from_npz(cls: type, data: bytes, labels: tuple[str, ...]) -> dict[str, Any]:
    """The keyword arguments that rebuild a `cls` stored by to_npz."""
    with np.load(io.BytesIO(data), allow_pickle=False) as stored:
        values = json.loads(stored["labels"].tobytes())
        arrays = {f.name: stored[f.name] for f in fields(cls) if f.name not in labels}
    return {**dict(zip(labels, values, strict=True)), **arrays}
