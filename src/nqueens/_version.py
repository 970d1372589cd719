# Workers' results and a journal's rows are matched by it: a change to what a subproblem
# counts (0.2.0.dev0: the odd boards' crosses counted as another image; 0.2.0.dev1: the
# crosses of n <= 17 grouped into jobs, and n = 13 by quadrants; 0.2.0.dev2: the crosses
# of n <= 15 one job) needs a new one.
__version__ = "0.2.0.dev2"
# The name on PyPI (the import name stays nqueens): every install hint uses it.
DISTRIBUTION = "nqueens-count"
