"""The compiled graph for `langgraph dev` and the LangGraph server (see langgraph.json).

The server brings its own checkpointer. Clients pass the run's settings as context:
{"workspace": "/path/to/repo", "overrides": {"base_url": "...", "model": "..."}}, and the input
{"run_id": ..., "query": ..., "workspace": ...}.
"""

from slmcode.graph.builder import build_graph

graph = build_graph()
