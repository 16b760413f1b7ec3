"""The files a model probably meant when it names one that does not exist. Small models misplace a path in known
ways: a folder too many (src/stockroom/x.py for stockroom/x.py), a folder too few (app.js for src/app.js), a
near spelling. Told only "does not exist", they repeat the call or guess again; told the existing path, they
take it. The workspace's file list comes from the task's Environment (git's list, or a walk that honours
.gitignore), so a hint never names an ignored or outside file."""

from __future__ import annotations

import difflib

from slmcode.environment.protocol import Environment
from slmcode.tools import prompts

MAX_HINTS = 3
CLOSE_CUTOFF = 0.7  # difflib ratio: a near spelling of the whole path, not any path sharing its extension


def closest_paths(files: list[str], wanted: str) -> list[str]:
    """Up to MAX_HINTS existing files for `wanted`: a path it ends with or that ends with it, then one of the
    same file name, then a near spelling."""
    wanted = wanted.strip().removeprefix("./").strip("/")
    if not wanted:
        return []
    name = wanted.rsplit("/", 1)[-1]
    by_suffix = [f for f in files if wanted.endswith("/" + f) or f.endswith("/" + wanted)]
    by_name = sorted((f for f in files if f.rsplit("/", 1)[-1] == name), key=lambda f: (f.count("/"), f))
    close = difflib.get_close_matches(wanted, files, n=MAX_HINTS, cutoff=CLOSE_CUTOFF)
    return list(dict.fromkeys([*by_suffix, *by_name, *close]))[:MAX_HINTS]


def path_hint(env: Environment, wanted: str) -> str:
    """ " Did you mean ...?" for a missing path, or "" when nothing in the workspace is close."""
    try:
        files = env.walk()
    except (OSError, ValueError):
        return ""
    hints = closest_paths(files, wanted)
    return prompts.PATH_HINT.format(paths=", ".join(hints)) if hints else ""
