"""`slmcode serve`: a small server-rendered web view of the workspace's runs, packs, pending patches and memory."""
