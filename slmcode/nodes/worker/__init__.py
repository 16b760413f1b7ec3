"""The worker: the loop that reads, edits and runs for one task (loop.py), and what each step of it needs."""
