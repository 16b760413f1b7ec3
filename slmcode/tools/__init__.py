"""What a worker may do to a repository, and how the harness proves what was done.

Entry points (import from the modules; this package imports nothing so the CLI starts fast):
  toolset.make_tools(ctx), toolset.run_tool_call(tools, call)   the ws_* tools and their one executor
  context.ToolContext                                          one task's view of the workspace
  repair.repair_tool_calls(message, tools)                     malformed and text-written calls made whole
  textcalls.find_text_calls(text, tool_names)                  tool calls written as text, with their spans
  criteria.run_criteria(criteria, workspace=, settings=)       criteria -> PASSED / FAILED / UNVERIFIED
  pending.list_pending / apply_pending / reject_pending        the review queue under .slmcode/pending/
"""
