"""The Environment seam: where one workspace's files live and its programs (and the harness's own git) run.
protocol.py is the contract; local.py is today's implementation (host files under the workspace's rules,
programs and git inside the bubblewrap jail)."""

from slmcode.environment.local import LocalEnvironment
from slmcode.environment.protocol import Completed, Entry, Environment

__all__ = ["Completed", "Entry", "Environment", "LocalEnvironment"]
