"""A local embedder with no model to download: signed feature hashing of a text's terms and term pairs.

Each feature hashes (blake2b, so the same in every process) to one of DIMENSIONS slots and a sign; weights are
sublinear term frequencies; vectors are L2-normalised so a dot product is a cosine. The lexical fallback is
TF-IDF cosine over the same terms, used when embeddings cannot be cached.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections import Counter
from collections.abc import Sequence

from slmcode.localize.lexical import terms

DIMENSIONS = 4096
EMBEDDER_NAME = f"signed-hashing-{DIMENSIONS}-v1"


def _features(text: str) -> Counter[str]:
    words = terms(text)
    features = Counter(words)
    features.update(f"{a} {b}" for a, b in itertools.pairwise(words))  # pairs keep a little order
    return features


def _slot(feature: str) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return value % DIMENSIONS, 1.0 if (value >> 63) & 1 else -1.0


def embed(text: str) -> list[float]:
    """A unit vector of DIMENSIONS floats; all zeros for a text with no terms."""
    vector = [0.0] * DIMENSIONS
    for feature, count in sorted(_features(text).items()):
        slot, sign = _slot(feature)
        vector[slot] += sign * (1.0 + math.log(count))
    norm = math.sqrt(sum(v * v for v in vector))
    return [v / norm for v in vector] if norm else vector


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def tfidf_scores(query: str, documents: Sequence[str]) -> list[float]:
    """Cosine between the query and each document in TF-IDF space built from the documents themselves."""
    doc_terms = [Counter(terms(d)) for d in documents]
    n = len(documents)
    frequency = Counter(t for counts in doc_terms for t in counts)
    idf = {t: math.log((1 + n) / (1 + df)) + 1 for t, df in sorted(frequency.items())}

    def vector(counts: Counter[str]) -> dict[str, float]:
        weights = {t: (1 + math.log(c)) * idf.get(t, math.log(1 + n) + 1) for t, c in sorted(counts.items())}
        norm = math.sqrt(sum(w * w for w in weights.values()))
        return {t: w / norm for t, w in weights.items()} if norm else {}

    asked = vector(Counter(terms(query)))
    return [sum(w * asked.get(t, 0.0) for t, w in vector(counts).items()) for counts in doc_terms]
