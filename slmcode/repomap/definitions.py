"""The definitions a file's text holds, by qualified name ("Class.method"), for the whole-file rewrite's guard
(tools/editformat.py): the repo map's own symbol extraction, on a text that is not on disk yet."""

from __future__ import annotations

import threading

from slmcode.repomap.extract import _CLASS_KINDS, Extractor, ParseFailure
from slmcode.repomap.languages import language_for_path

# A rewrite is rare and compiling a language's queries costs milliseconds to a quarter second: one extractor per
# thread keeps them (a tree-sitter parser is not shared between threads).
_local = threading.local()


def defined_names(path: str, text: str) -> list[str] | None:
    """Qualified names of the functions, classes and methods `text` defines, in file order; None when no grammar
    reads the file; [] when the text does not parse (a rewrite that breaks the file keeps nothing)."""
    if language_for_path(path) is None:
        return None
    extractor = getattr(_local, "extractor", None) or Extractor()
    _local.extractor = extractor
    try:
        symbols = extractor.extract(path, text.encode("utf-8", "replace")).definitions
    except ParseFailure:
        return []
    names = []
    for symbol in symbols:
        owners = [
            s.name
            for s in symbols
            if s is not symbol and s.kind in _CLASS_KINDS and s.start <= symbol.start and symbol.end <= s.end
        ]
        names.append(".".join([*owners, symbol.name]))
    return names
