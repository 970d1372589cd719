"""The engine behind count() and estimate(): the split into subproblems, quadrant jobs,
threads, workers and clusters, the journal and the checks of whole-board totals."""
