"""render() and to_svg(): boards that people can look at."""

from __future__ import annotations

from collections.abc import Sequence

from ._checking import columns_of
from ._validate import as_int

STYLES = ("queens", "binary", "stars", "numbered", "unicode")
SVG_MAX_N = 2000
"""The largest board to_svg() draws: beyond it the queens are under a pixel."""


def render(placement: Sequence[int], style: str = "queens") -> str:
    """Draw a placement as text, one line per row, each line ending in a newline.

    Styles, as the seed articles print their boards:

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
    if style not in STYLES:
        raise ValueError(f"style must be one of {', '.join(STYLES)}; got {style!r}")
    columns = columns_of(placement)
    n = len(columns)
    lines = []
    for row, queen in enumerate(columns):
        if style == "queens":
            lines.append("." * queen + "Q" + "." * (n - 1 - queen))
            continue
        if style == "unicode":
            cells = ["♛" if c == queen else "□■"[(row + c) % 2] for c in range(n)]
            lines.append("".join(cells))
            continue
        mark = {"binary": "1", "stars": "*", "numbered": str(row + 1)}[style]
        empty = "0"
        lines.append(" ".join(mark if c == queen else empty for c in range(n)))
    return "".join(line + "\n" for line in lines)


def to_svg(placement: Sequence[int], size: int = 400) -> str:
    """Draw a placement as a standalone SVG chessboard, `size` pixels square.

    The checkering is one pattern and each queen one reference to a shared
    symbol, so the file grows with n, not n^2.  Boards larger than the size
    in pixels are drawn all the same, at under a pixel a square; above
    SVG_MAX_N columns the drawing is refused.  Raises as render() does, and
    ValueError for a size below 16 or a board over SVG_MAX_N.

    >>> svg = to_svg((1, 3, 0, 2), size=200)
    >>> svg.startswith("<svg") and svg.count('<use href="#queen"') == 4
    True
    """
    size = as_int(size, "size")
    if size < 16:
        raise ValueError(f"size must be at least 16 pixels, got {size}")
    columns = columns_of(placement)
    n = len(columns)
    if n > SVG_MAX_N:
        raise ValueError(f"to_svg draws boards up to {SVG_MAX_N} columns (SVG_MAX_N), got {n}")
    cell = size / max(n, 1)
    queens = "".join(
        f'<use href="#queen" x="{c * cell:.4g}" y="{r * cell:.4g}" '
        f'width="{cell:.4g}" height="{cell:.4g}"/>'
        for r, c in enumerate(columns)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}">'
        f"<title>{n} queens</title>"
        "<defs>"
        f'<pattern id="board" width="{2 * cell:.6g}" height="{2 * cell:.6g}" '
        'patternUnits="userSpaceOnUse">'
        f'<rect width="{2 * cell:.6g}" height="{2 * cell:.6g}" fill="#f0d9b5"/>'
        f'<rect x="{cell:.6g}" width="{cell:.6g}" height="{cell:.6g}" fill="#b58863"/>'
        f'<rect y="{cell:.6g}" width="{cell:.6g}" height="{cell:.6g}" fill="#b58863"/>'
        "</pattern>"
        '<symbol id="queen" viewBox="0 0 100 100">'
        '<path d="M20 78 L14 34 L32 54 L40 22 L50 50 L60 22 L68 54 L86 34 L80 78 Z" '
        'fill="#202020" stroke="#f8f8f8" stroke-width="3"/>'
        '<rect x="18" y="80" width="64" height="10" rx="3" fill="#202020" '
        'stroke="#f8f8f8" stroke-width="3"/>'
        "</symbol>"
        "</defs>"
        f'<rect width="{size}" height="{size}" fill="url(#board)"/>'
        f"{queens}</svg>\n"
    )
