"""Retrieval over project memory: MEMORY.md, session summaries and learned skills, chunked by section.

Off unless embedding_enabled. Chunks are ranked by cosine with the query under the local hashing embedder
(vectors cached in SQLite); if the cache fails, by lexical TF-IDF. A chunk is retrieved only above a threshold
that combines a calibrated absolute floor with the corpus's own noise baseline (the median score of the query
against every chunk, plus a margin), so a query unrelated to everything retrieves nothing.
retrieval_min_score, when set, replaces the threshold.
"""

from __future__ import annotations

import itertools
import json
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from slmcode.environment.containment import readable
from slmcode.localize.lexical import terms
from slmcode.packs.embed import EMBEDDER_NAME, cosine, embed, tfidf_scores
from slmcode.packs.embedcache import EmbeddingCacheError, cached_embeddings
from slmcode.packs.settings import PackSettings
from slmcode.store.paths import LEARNED_DIR, MEMORY_FILE, SESSIONS_DIR, SKILL_FILE, SKILLS_DIR, STATE_DIR

MEMORY_FILES: tuple[str, ...] = (f"{STATE_DIR}/{MEMORY_FILE}",)
SUMMARY_DIRS: tuple[str, ...] = (f"{STATE_DIR}/{SESSIONS_DIR}",)
LEARNED_SKILLS_DIR = f"{STATE_DIR}/{SKILLS_DIR}/{LEARNED_DIR}"
# Calibrated on random queries against memory-like corpora (tests/packs/test_retrieval.py measures them):
# unrelated text scores below 0.1 under both rankers; a query sharing two content words scores above 0.2.
ABSOLUTE_FLOOR = {"hashing": 0.16, "tfidf": 0.12}
NOISE_MARGIN = 0.08
MAX_HITS = 6
MAX_CHUNK_CHARS = 1200
MIN_CHUNK_TERMS = 3  # a bare heading says too little, and one hash collision would make it look relevant

_HEADING_RE = re.compile(r"^#{1,6}\s", re.MULTILINE)


@dataclass(frozen=True)
class Chunk:
    source: str  # relative path, with the section's heading when it has one
    text: str


@dataclass(frozen=True)
class Hit:
    source: str
    text: str
    score: float


@dataclass(frozen=True)
class Retrieval:
    hits: tuple[Hit, ...]
    method: str  # "hashing", "tfidf" or "off"
    threshold: float
    noise: float  # the corpus's baseline for this query: median score plus the margin
    note: str = ""


def memory_files(workspace: Path, skipped: list[str] | None = None) -> list[str]:
    """The memory corpus, relative paths in a fixed order: memory, session snapshots, learned skills. A file
    that leads out of the workspace through a symlink is never read (its path goes to `skipped`)."""
    found = [p for p in MEMORY_FILES if (workspace / p).is_file()]
    for folder in SUMMARY_DIRS:
        root = workspace / folder
        if root.is_dir():
            found += sorted(p.relative_to(workspace).as_posix() for p in root.glob("*.json") if p.is_file())
    learned = workspace / LEARNED_SKILLS_DIR
    if learned.is_dir():
        found += sorted(p.relative_to(workspace).as_posix() for p in learned.rglob(SKILL_FILE) if p.is_file())
    kept = [p for p in found if readable(workspace, p)]
    if skipped is not None:
        skipped += [p for p in found if p not in kept]
    return kept


def chunk_sections(path: str, text: str) -> list[Chunk]:
    """One chunk per markdown section; a long section splits at blank lines."""
    starts = [m.start() for m in _HEADING_RE.finditer(text)]
    bounds = sorted({0, *starts, len(text)})
    chunks: list[Chunk] = []
    for begin, end in itertools.pairwise(bounds):
        section = text[begin:end].strip()
        if not section:
            continue
        first = section.splitlines()[0]
        source = f"{path} {first.lstrip('#').strip()}" if _HEADING_RE.match(first) else path
        piece = ""
        for paragraph in section.split("\n\n"):
            if piece and len(piece) + len(paragraph) > MAX_CHUNK_CHARS:
                chunks.append(Chunk(source, piece.strip()))
                piece = ""
            piece += paragraph + "\n\n"
        if piece.strip():
            chunks.append(Chunk(source, piece.strip()))
    return chunks


def load_corpus(workspace: Path, skipped: list[str] | None = None) -> list[Chunk]:
    chunks: list[Chunk] = []
    for path in memory_files(workspace, skipped):
        try:
            text = (workspace / path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue  # an unreadable note is as good as absent
        chunks += [session_chunk(path, text)] if path.endswith(".json") else chunk_sections(path, text)
    return [c for c in chunks if len(terms(c.text)) >= MIN_CHUNK_TERMS]


def session_chunk(path: str, text: str) -> Chunk:
    """A session snapshot (JSON, written by slmcode.store.sessions) as one chunk: its query and summary."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return Chunk(path, "")  # a foreign or broken file is not a summary
    if not isinstance(data, dict):
        return Chunk(path, "")
    parts = [str(data.get("query") or ""), str(data.get("summary") or "")]
    return Chunk(path, "\n".join(p for p in parts if p).strip())


def score_chunks(workspace: Path, query: str, chunks: Sequence[Chunk]) -> tuple[list[float], str, str]:
    """Scores in chunk order, the method used, and why it fell back (empty when it did not)."""
    texts = [c.text for c in chunks]
    try:
        vectors = cached_embeddings(workspace, EMBEDDER_NAME, texts, embed)
    except EmbeddingCacheError as exc:
        return tfidf_scores(query, texts), "tfidf", f"embedding cache unavailable ({exc}); lexical TF-IDF used"
    asked = embed(query)
    return [cosine(asked, v) for v in vectors], "hashing", ""


def threshold_for(scores: Sequence[float], method: str, override: float | None) -> tuple[float, float]:
    """(threshold, noise baseline): the override when set, else the higher of the floor and the baseline."""
    noise = (statistics.median(scores) if scores else 0.0) + NOISE_MARGIN
    if override is not None:
        return override, noise
    return max(ABSOLUTE_FLOOR[method], noise), noise


def rank(query: str, chunks: Sequence[Chunk], scores: Sequence[float], threshold: float) -> list[Hit]:
    hits = [Hit(c.source, c.text, round(s, 6)) for c, s in zip(chunks, scores, strict=True) if s >= threshold]
    hits.sort(key=lambda h: (-h.score, h.source, h.text))
    return hits[:MAX_HITS]


def retrieve(workspace: Path, query: str, settings: PackSettings) -> Retrieval:
    """The memory chunks relevant to `query`, best first; nothing when retrieval is off or nothing is relevant."""
    if not settings.embedding_enabled:
        return Retrieval((), "off", 0.0, 0.0, "embedding_enabled is off")
    links_out: list[str] = []
    chunks = load_corpus(workspace, links_out)
    skipped = "; ".join(f"{path} leads out of the workspace through a symlink, skipped" for path in links_out)
    if not chunks or not query.strip():
        why = "no memory to search" if not chunks else "empty query"
        return Retrieval((), "hashing", 0.0, 0.0, "; ".join(n for n in (why, skipped) if n))
    scores, method, note = score_chunks(workspace, query, chunks)
    threshold, noise = threshold_for(scores, method, settings.retrieval_min_score)
    hits = tuple(rank(query, chunks, scores, threshold))
    return Retrieval(hits, method, threshold, noise, "; ".join(n for n in (note, skipped) if n))
