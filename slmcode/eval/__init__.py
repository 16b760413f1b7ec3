"""`slmcode eval`: a bundled suite of small coding tasks, graded by hidden tests run in the sandbox, through the
harness and through a plain baseline loop, with recorded model answers replayed for CI."""
