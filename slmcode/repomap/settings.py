"""The slice of the settings the repo map reads (a Protocol `Settings` satisfies): only how large a file it will
parse; its token budget is the caller's to give."""

from __future__ import annotations

from typing import Protocol


class RepoMapSettings(Protocol):
    repomap_max_file_bytes: int
