"""The standard suites for real models: Aider's polyglot benchmark (a local checkout) and SWE-bench instances
(a JSONL file against local clones), run through the same harness and graded in the same sandbox as the
bundled suite, and reported in the shape of the published tables."""
