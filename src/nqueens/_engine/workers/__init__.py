"""Workers beyond this process: count(n, workers=...) hands them units of subproblems and
checks every result.

- ``messages``: what a worker is handed and what it answers, and the errors;
- ``engines``: how units reach the workers (Dask, executors, pools, map-likes);
- ``ledger``: the memory a process pool shares with this process, from which its
  processes take units;
- ``plan``: how the pending subproblems are cut into units and calls, and which are
  counted twice;
- ``checks``: ``results()``, which drives an engine through a plan and checks every
  answer.
"""
