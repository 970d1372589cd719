import sys

from .cli import main

# guarded: MPI workers (python -m mpi4py.futures -m nqueens) import this module
# under another name, and must not run the command themselves
if __name__ == "__main__":
    sys.exit(main())
