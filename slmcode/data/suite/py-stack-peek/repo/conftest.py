# The repository root on sys.path, so tests import the modules here.
