"""The words the structured-output helper adds to a conversation."""

SCHEMA_INSTRUCTION = """Answer with one JSON object and nothing else: no prose, no code fence.
It must match this JSON schema:
{schema}"""

REASK = """Your answer was not valid: {error}
Answer again with only the corrected JSON object."""
