"""The `slmcode` commands, one module per group; slmcode/cli.py assembles them."""
