"""The words the structured-output helper adds to a conversation."""

SCHEMA_INSTRUCTION = """Answer with one JSON object and nothing else: no prose, no code fence.
It must match this JSON schema:
{schema}"""

REASK = """Your answer was not valid: {error}
Answer again with only the corrected JSON object."""

# llama-cpp-python's function-calling template drops role "tool" messages: results go back as user turns.
TOOL_RESULT_AS_USER = """Result of {name}:
{result}"""
