"""The baseline agent's prompts: what a plain tool-calling loop tells its model, and nothing more (no pack, no
repo map, no instructions, no memory), so the comparison measures what the harness adds."""

BASELINE_SYSTEM = (
    "You are a coding agent working inside a software repository. Use the tools to look at files, search, edit "
    "files and run commands. Make the change the user asks for, check it when you can, and when you are done "
    "answer with a short summary and no tool call."
)
INVALID_ARGUMENTS = "Error: the arguments of this call are not valid JSON; nothing ran."
