"""render() and to_svg(): boards that people can look at."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .._validate import as_int
from .checking import columns_of

STYLES = ("queens", "binary", "stars", "numbered", "unicode")
SVG_MAX_N = 2000
"""The largest board to_svg() draws: beyond it the queens are under a pixel."""
SVG_MAX_SIZE = 65536
"""The largest picture to_svg() draws, in pixels a side."""


def render(placement: Sequence[int], style: str = "queens") -> str:
    """Draw a placement as text, one line per row, each line ending in a newline.

    Styles, as teaching texts on the problem print their boards:

    - "queens" (the default): 'Q' for a queen, '.' for an empty square;
    - "binary": 1 for a queen, 0 elsewhere, separated by spaces;
    - "stars": '*' for a queen, '0' elsewhere, separated by spaces;
    - "numbered": a queen shows its row number counted from 1, 0 elsewhere;
    - "unicode": a black queen ♛ on a checkered board of □ and ■.

    Any placement of ints 0..n-1 is drawn, valid or not.  Raises TypeError
    or ValueError as is_solution() does, and ValueError for an unknown style.

    >>> print(render((1, 3, 0, 2)), end="")
    .Q..
    ...Q
    Q...
    ..Q.
    >>> print(render((1, 3, 0, 2), style="numbered"), end="")
    0 1 0 0
    0 0 0 2
    3 0 0 0
    0 0 4 0
    """
    return "".join(line + "\n" for line in render_lines(placement, style))


def render_lines(placement: Sequence[int], style: str = "queens") -> Iterator[str]:
    """The lines of render(), one row at a time and without newlines: memory for one
    row, not for the whole board.  Arguments are checked at the call.

    >>> list(render_lines((1, 3, 0, 2)))
    ['.Q..', '...Q', 'Q...', '..Q.']
    """
    if style not in STYLES:
        raise ValueError(f"style must be one of {', '.join(STYLES)}; got {style!r}")
    return _lines(columns_of(placement), style)


def _lines(columns: list[int], style: str) -> Iterator[str]:
    n = len(columns)
    for row, queen in enumerate(columns):
        if style == "queens":
            yield "." * queen + "Q" + "." * (n - 1 - queen)
        elif style == "unicode":
            yield "".join("♛" if c == queen else "□■"[(row + c) % 2] for c in range(n))
        else:
            mark = {"binary": "1", "stars": "*", "numbered": str(row + 1)}[style]
            yield " ".join(mark if c == queen else "0" for c in range(n))


class SVG(str):
    """An SVG document: a str like any other, that Jupyter and IPython show as
    the picture it draws (``_repr_svg_``)."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


def to_svg(placement: Sequence[int], size: int = 400) -> SVG:
    """Draw a placement as a standalone SVG chessboard, `size` pixels square.

    The result is a str (an ``SVG``, which a notebook shows as the board
    itself); write it to a .svg file, or embed it in HTML.

    The drawing is in board units (a square is 1 by 1, a queen sits at the
    integers of its row and column), scaled to the size by the viewBox, so
    every queen lies exactly in its square.  The checkering is one pattern
    and each queen one reference to a shared symbol, so the file grows with
    n, not n^2.  Boards larger than the size in pixels are drawn all the
    same, at under a pixel a square; above SVG_MAX_N columns the drawing is
    refused.  Raises as render() does, and ValueError for a size outside 16
    to SVG_MAX_SIZE pixels or a board over SVG_MAX_N.

    Parameters
    ----------
    placement
        A column per row, 0-based, valid or not.
    size
        The picture's side in pixels, 16 to SVG_MAX_SIZE.

    Returns
    -------
    SVG
        The document, a str.

    Raises
    ------
    TypeError, ValueError
        As render() does; a size or a board out of range.

    Examples
    --------
    >>> svg = to_svg((1, 3, 0, 2), size=200)
    >>> svg.startswith("<svg") and svg.count('<use href="#queen"') == 4
    True
    >>> svg._repr_svg_() == svg  # what a notebook shows
    True
    """
    size = as_int(size, "size")
    if not 16 <= size <= SVG_MAX_SIZE:
        raise ValueError(f"size must be 16 to {SVG_MAX_SIZE} pixels, got {size}")
    columns = columns_of(placement)
    n = len(columns)
    if n > SVG_MAX_N:
        raise ValueError(f"to_svg draws boards up to {SVG_MAX_N} columns (SVG_MAX_N), got {n}")
    side = max(n, 1)
    queens = "".join(
        f'<use href="#queen" x="{c}" y="{r}" width="1" height="1"/>' for r, c in enumerate(columns)
    )
    return SVG(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {side} {side}">'
        f"<title>{n} queens</title>"
        "<defs>"
        '<pattern id="board" width="2" height="2" patternUnits="userSpaceOnUse">'
        '<rect width="2" height="2" fill="#f0d9b5"/>'
        '<rect x="1" width="1" height="1" fill="#b58863"/>'
        '<rect y="1" width="1" height="1" fill="#b58863"/>'
        "</pattern>"
        '<symbol id="queen" viewBox="0 0 100 100">'
        '<path d="M20 78 L14 34 L32 54 L40 22 L50 50 L60 22 L68 54 L86 34 L80 78 Z" '
        'fill="#202020" stroke="#f8f8f8" stroke-width="3"/>'
        '<rect x="18" y="80" width="64" height="10" rx="3" fill="#202020" '
        'stroke="#f8f8f8" stroke-width="3"/>'
        "</symbol>"
        "</defs>"
        f'<rect width="{side}" height="{side}" fill="url(#board)"/>'
        f"{queens}</svg>\n"
    )


class Board(tuple):  # type: ignore[type-arg]
    """A placement (a column per row, 0-based) that shows itself: a tuple like any
    other, whose ``str()`` is render()'s drawing and which a notebook shows as
    to_svg()'s picture (``_repr_svg_``, ``_repr_html_``).  construct() and
    random_solution() return one; wrap any other placement, valid or not.

    >>> board = Board((1, 3, 0, 2))
    >>> board == (1, 3, 0, 2), board[0], len(board)
    (True, 1, 4)
    >>> print(board, end="")
    .Q..
    ...Q
    Q...
    ..Q.
    >>> board._repr_svg_().startswith("<svg")
    True
    >>> Board((0, 4))
    Traceback (most recent call last):
    ...
    ValueError: placement[1] = 4 is off the board: columns run from 0 to 1
    """

    __slots__ = ()

    def __new__(cls, placement: Sequence[int]) -> Board:
        return super().__new__(cls, columns_of(placement))

    def __str__(self) -> str:
        return render(self)

    def _repr_svg_(self) -> str | None:
        # (None: no picture, beyond SVG_MAX_N columns)
        return str(to_svg(self)) if len(self) <= SVG_MAX_N else None

    def _repr_html_(self) -> str:
        return self._repr_svg_() or f"<pre>{len(self)} queens: too many to draw</pre>"
