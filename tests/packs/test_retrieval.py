"""Retrieval over project memory: relevant notes come back, pure noise does not, vectors are cached."""

from __future__ import annotations

import json
import random
import statistics
from pathlib import Path

from slmcode.config import Settings
from slmcode.packs.embed import cosine, embed, tfidf_scores
from slmcode.packs.retrieval import ABSOLUTE_FLOOR, chunk_sections, load_corpus, retrieve
from slmcode.store.paths import EMBEDDINGS, cache_file

MEMORY = """# Lessons

## Database migrations
Run alembic upgrade head before the integration tests, or the schema check fails.

## Flaky network tests
The http client tests need the fake server fixture; never call the real API.

## Release process
Bump the version in pyproject.toml and tag the commit; the changelog is generated.

## Windows paths
Normalise backslashes before comparing paths in the path matcher.
"""

ON = Settings(embedding_enabled=True)


def memory_workspace(tmp_path: Path) -> Path:
    state = tmp_path / ".slmcode"
    (state / "sessions").mkdir(parents=True)
    (state / "MEMORY.md").write_text(MEMORY, encoding="utf-8")
    session = {"run_id": "r1", "query": "speed up the csv exporter", "summary": "streamed rows instead of a list"}
    (state / "sessions" / "r1.json").write_text(json.dumps(session), encoding="utf-8")
    return tmp_path


def noise_query(rng: random.Random) -> str:
    """Pronounceable nonsense: words no note uses."""
    syllables = ["zo", "qua", "rix", "vel", "mon", "tu", "prax", "ib", "ulk", "fen"]
    return " ".join("".join(rng.choice(syllables) for _ in range(3)) for _ in range(8))


def test_chunks_follow_sections() -> None:
    chunks = chunk_sections(".slmcode/MEMORY.md", MEMORY)
    assert [c.source for c in chunks] == [
        ".slmcode/MEMORY.md Lessons",
        ".slmcode/MEMORY.md Database migrations",
        ".slmcode/MEMORY.md Flaky network tests",
        ".slmcode/MEMORY.md Release process",
        ".slmcode/MEMORY.md Windows paths",
    ]


def test_relevant_notes_are_retrieved_best_first(tmp_path: Path) -> None:
    result = retrieve(memory_workspace(tmp_path), "the alembic migration fails the schema check", ON)
    assert result.method == "hashing"
    assert result.hits and result.hits[0].source.endswith("Database migrations")
    summary = retrieve(tmp_path, "make the csv exporter faster", ON)
    assert summary.hits and summary.hits[0].source == ".slmcode/sessions/r1.json"


def test_measured_noise_floors_stay_below_the_absolute_floor(tmp_path: Path) -> None:
    """Random queries against the corpus: their best score is the noise the absolute floor must clear."""
    corpus = [c.text for c in load_corpus(memory_workspace(tmp_path))]
    vectors = [embed(t) for t in corpus]
    rng = random.Random(7)
    best_hashing, best_tfidf = [], []
    for _ in range(200):
        query = noise_query(rng)
        best_hashing.append(max(cosine(embed(query), v) for v in vectors))
        best_tfidf.append(max(tfidf_scores(query, corpus)))
    assert max(best_hashing) < ABSOLUTE_FLOOR["hashing"], statistics.quantiles(best_hashing, n=20)
    assert max(best_tfidf) < ABSOLUTE_FLOOR["tfidf"]
    migrations = next(v for t, v in zip(corpus, vectors, strict=True) if "alembic" in t)
    relevant = cosine(embed("alembic upgrade before the integration tests"), migrations)
    assert relevant > ABSOLUTE_FLOOR["hashing"] * 2


def test_pure_noise_is_not_retrieved(tmp_path: Path) -> None:
    workspace = memory_workspace(tmp_path)
    rng = random.Random(11)
    for _ in range(30):
        assert retrieve(workspace, noise_query(rng), ON).hits == ()


def test_the_noise_baseline_lifts_the_threshold_over_a_corpus_that_all_looks_alike(tmp_path: Path) -> None:
    notes = "".join(f"## Note {i}\nthe parser handles token stream {i} in the parser module\n\n" for i in range(12))
    (tmp_path / ".slmcode").mkdir()
    (tmp_path / ".slmcode" / "MEMORY.md").write_text(notes, encoding="utf-8")
    result = retrieve(tmp_path, "parser token stream", ON)
    assert result.noise > ABSOLUTE_FLOOR["hashing"]
    assert result.threshold == result.noise  # the baseline, not the floor, decides here
    assert len(result.hits) < 12  # not everything that merely looks alike


def test_retrieval_min_score_overrides_the_threshold(tmp_path: Path) -> None:
    workspace = memory_workspace(tmp_path)
    loose = retrieve(workspace, noise_query(random.Random(3)), Settings(embedding_enabled=True, retrieval_min_score=-1))
    assert loose.threshold == -1 and len(loose.hits) > 0


def test_off_unless_enabled_and_vectors_are_cached(tmp_path: Path) -> None:
    workspace = memory_workspace(tmp_path)
    assert retrieve(workspace, "alembic migration", Settings()).method == "off"
    first = retrieve(workspace, "alembic migration", ON)
    assert cache_file(workspace, EMBEDDINGS).is_file()
    assert retrieve(workspace, "alembic migration", ON) == first


def test_a_broken_cache_falls_back_to_tfidf_and_says_so(tmp_path: Path) -> None:
    workspace = memory_workspace(tmp_path)
    cache_file(workspace, EMBEDDINGS).parent.mkdir(parents=True)
    cache_file(workspace, EMBEDDINGS).write_bytes(b"this is not a database" * 100)
    result = retrieve(workspace, "the alembic migration fails the schema check", ON)
    assert result.method == "tfidf" and "TF-IDF" in result.note
    assert result.hits[0].source.endswith("Database migrations")
