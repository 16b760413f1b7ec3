"""Text the repo map puts in front of a model."""

from __future__ import annotations

MAP_HEADER = "Repository map (most relevant first; line ranges are real, read them before editing):"
# One file: its path, then one line per symbol: "<start>-<end>: <signature line as written>".
FILE_LINE = "{path}:"
SYMBOL_LINE = "  {start}-{end}: {signature}"
