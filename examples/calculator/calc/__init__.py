"""A tiny calculator: the example repository slmcode's README runs on."""
