"""A gate's verdict: its name, PASSED / FAILED / UNVERIFIED, and one line saying why (details may follow)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

GateStatus = Literal["PASSED", "FAILED", "UNVERIFIED"]


@dataclass(frozen=True)
class GateVerdict:
    gate: str
    status: GateStatus
    evidence: str

    @property
    def failed(self) -> bool:
        return self.status == "FAILED"
