"""The baseline agent's prompts: what a plain tool-calling loop tells its model, and nothing more (no pack, no
repo map, no instructions, no memory), so the comparison measures what the harness adds."""

BASELINE_SYSTEM = (
    "You are a coding agent working inside a software repository. Use the tools to look at files, search, edit "
    "files and run commands. Make the change the user asks for, check it when you can, and when you are done "
    "answer with a short summary and no tool call."
)
INVALID_ARGUMENTS = "Error: the arguments of this call are not valid JSON; nothing ran."

# The mini-swe-agent-like peer (eval/mini_swe.py): one shell command per reply, in one fenced bash block; the
# output comes back as the next message; the run ends when a command's output starts with the submit marker.
MINI_SWE_SUBMIT = "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"
MINI_SWE_SYSTEM = (
    "You are a helpful assistant that works in a software repository through a shell, one command at a time.\n"
    "Every reply holds a THOUGHT paragraph, then exactly ONE bash code block with ONE command (or commands joined "
    "with && or ||). Each command runs in a fresh shell at the repository's root; its output is the next message.\n"
    "There are no other tools: read files with cat, nl, head, grep or sed -n; change them with sed -i, a cat "
    "heredoc or a short python script."
)
MINI_SWE_TASK = (
    "Please solve this task:\n\n{task}\n\n"
    "Work like this: find and read the relevant code, make the change, run the tests ({test_command}), then "
    "finish. When you are done, and only then, reply with a command whose output starts with the marker: "
    f"`echo {MINI_SWE_SUBMIT}`. After that you cannot continue."
)
MINI_SWE_OBSERVATION = "<returncode>{returncode}</returncode>\n<output>\n{output}</output>"
MINI_SWE_FORMAT_ERROR = (
    "Please always reply with EXACTLY ONE bash code block (```bash ... ```), found {count}. "
    "Nothing ran. If you have finished, run: echo " + MINI_SWE_SUBMIT
)
MINI_SWE_TIMEOUT = "The command ran past {seconds:g} s and was stopped; nothing it printed is kept."
