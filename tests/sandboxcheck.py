"""Whether a kernel sandbox runs on this machine, asked once: the attack tests judge the wall, so without one they
skip with the reason instead of failing."""

from __future__ import annotations

import pytest

from slmcode.environment import ossandbox

try:
    ossandbox.bwrap_binary()
    SANDBOX = True
except ossandbox.SandboxUnavailable:
    SANDBOX = False

needs_sandbox = pytest.mark.skipif(not SANDBOX, reason="no kernel sandbox on this machine (doctor says why)")
