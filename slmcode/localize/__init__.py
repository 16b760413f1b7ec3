"""Localization: which lines of which files a request is about. Lexical spans ranked by BM25 with priors
(candidates.py), the lexical index of each line's terms kept between packs (lexindex.py), the reference graph's
and the file's echo as feedback, and the optional semantic channel (semantic.py). packs/ assembles what it finds
into a TaskPack; this package knows nothing of budgets or sections."""
