"""What the standard suites tell the agent. The polyglot wording follows aider's benchmark protocol (the
exercise's instructions, then which files to change; on a second try, the test output and where to fix it), so
a solve rate here sits beside aider's and little-coder's."""

POLYGLOT_ADDENDUM = """
####

Use the instructions above to change these files: {files}
Keep the names of the existing functions and classes: other code, such as the unit tests, uses them.
Use only the standard library; do not install packages.
"""

POLYGLOT_RETRY = """
####

{output}

####

The test errors are shown above.
The tests are right; do not change them.
Fix the code in {files} so the tests pass.
"""

SWEBENCH_TASK = """{problem}

####

Change the repository's code so the issue above is resolved. Do not add or change tests: hidden tests decide
whether the issue is fixed.
"""
