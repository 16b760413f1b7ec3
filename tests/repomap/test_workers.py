"""Forked parse workers: every span answered once, results back here, a dead worker an error not a hang."""

from __future__ import annotations

import os

import pytest

from slmcode.errors import RepoMapError
from slmcode.repomap.workers import run_forked


def test_every_span_is_worked_once_in_child_processes() -> None:
    words = [f"w{i}" for i in range(30)]  # the list is inherited through the fork, not pickled
    results: dict[int, tuple[str, int]] = {}
    run_forked(lambda span: (words[span].upper(), os.getpid()), len(words), 2, results.__setitem__)
    assert sorted(results) == list(range(30))
    assert [results[i][0] for i in range(30)] == [w.upper() for w in words]
    assert os.getpid() not in {pid for _, pid in results.values()}


def test_a_worker_that_dies_raises_instead_of_hanging() -> None:
    def work(span: int) -> int:
        if span == 3:
            os._exit(7)
        return span

    with pytest.raises(RepoMapError, match="exit code 7"):
        run_forked(work, 10, 2, lambda span, result: None)


def test_fewer_spans_than_workers() -> None:
    results: list[int] = []
    run_forked(lambda span: span * 10, 1, 4, lambda span, result: results.append(result))
    assert results == [0]
