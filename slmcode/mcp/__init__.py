"""MCP tools: servers configured under `mcp_servers:` offered to the agents that list their tools.

servers.py opens one session (a sandboxed stdio process, or streamable HTTP on loopback); hub.py keeps a run's
sessions on a private event loop thread, since the graph's nodes are synchronous; offer.py names the tools
`mcp__SERVER__TOOL`, picks the ones an agent lists (at most mcp_max_tools) and wraps each as a synchronous
LangChain tool whose failures come back to the model as tool errors.
"""
