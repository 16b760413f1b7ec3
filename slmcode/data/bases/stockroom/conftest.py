# The repository root on sys.path, so tests import the stockroom package from here.
