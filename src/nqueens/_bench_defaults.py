"""The defaults of ``nqueens bench`` and the names of what it writes: a leaf
module, so that the command line's help can quote them without loading the
timing stack (``nqueens.benchmark`` re-exports them)."""

DEFAULT_MAX_N = 16
# the default budget lets plain C reach n = 16, the size the published figures quote
# (BENCHMARKS.md gives its time and the default run's)
DEFAULT_BUDGET = 4.0
QUICK_MAX_N = 12
QUICK_BUDGET = 0.2
DEFAULT_RUNS = 5
MAX_RUNS = 1000
MIN_RUNS = 3
SLOW_RUN = 1.0  # seconds: a run this long is repeated MIN_RUNS times only

OUT_DIR = "nqueens-bench"
"""Where ``nqueens bench`` writes its report without --out (a folder of its own,
made if missing, not the working directory)."""
MARKDOWN_NAME = "nqueens-bench.md"
JSON_NAME = "nqueens-bench.json"
PLOT_NAME = "nqueens-bench.png"
