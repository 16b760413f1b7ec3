"""Git-native runs: in a git workspace each accepted task of a run becomes one commit on the run's own branch
`slmcode/RUN_ID`, and nothing reaches the user's branch until `slmcode accept RUN`.

Design choice: branch in place, not a worktree. A worktree would move the run's workspace to another folder,
and every path the run keeps (.slmcode's checkpoints, trace, journal, run files, packs' caches) is keyed by
the workspace: `resume`, `status` and the web view would have to learn a second folder. In place, the run
checks out `slmcode/RUN_ID` (made at the user's HEAD) in the user's folder, commits each task there, and at the
end saves whatever is left uncommitted (a failed task's edits) under `refs/slmcode/leftovers/RUN_ID`, then
checks the user's branch out again: their branch, index and files are as they left them. A dirty tree is
refused with one line, or with `--stash` stashed (the stash's commit is kept in the run record) and applied
again when the run ends. A run that stops early (killed, interrupted) stays on its branch so `resume`
continues where it was; `slmcode undo RUN` abandons it and returns the user.

`git_mode: in-place` commits each task straight onto the user's current branch instead (aider-style): no
second branch, nothing to accept; undo then reverts (new commits, the user's history is never rewritten).

Every git call is a fixed argv with hooks, fsmonitor and signing turned off (gitrun.git); the harness does
git, never the model: the sandbox keeps every `.git` read-only for the agent's commands.
"""
