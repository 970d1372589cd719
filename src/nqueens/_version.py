# Workers' results and a journal's rows are matched by it: a change to what a task
# counts (0.2.0.dev0: the odd boards' crosses counted as another image) needs a new one.
__version__ = "0.2.0.dev0"
# The name on PyPI (the import name stays nqueens): every install hint uses it.
DISTRIBUTION = "nqueens-count"
