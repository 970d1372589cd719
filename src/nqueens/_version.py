__version__ = "0.1.0"
# The name on PyPI (the import name stays nqueens): every install hint uses it.
DISTRIBUTION = "nqueens-count"
