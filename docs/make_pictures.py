"""Draw the pictures of docs/explanation/how-it-works.md into docs/_static (run from the
checkout after a change to to_svg): python docs/make_pictures.py"""

from __future__ import annotations

from pathlib import Path

import nqueens

HERE = Path(__file__).resolve().parent / "_static"
FIRST = next(nqueens.solutions(8))
SHADES = ["#f3e3c3", "#d9c8a0", "#c9d9e6", "#a9bfd1"]  # north-west, north-east, south-west, -east


def quadrants(placement: tuple[int, ...], size: int = 320) -> str:
    """The board in its four quadrants, each square shaded by its quadrant, with the queens."""
    n, half = len(placement), len(placement) // 2
    squares = "".join(
        f'<rect x="{c}" y="{r}" width="1" height="1" fill="{SHADES[2 * (r >= half) + (c >= half)]}"'
        f' stroke="#ffffff" stroke-width="0.04"/>'
        for r in range(n)
        for c in range(n)
    )
    queens = "".join(
        f'<circle cx="{c + 0.5}" cy="{r + 0.5}" r="0.32" fill="#202020"/>'
        for r, c in enumerate(placement)
    )
    cut = (
        f'<line x1="{half}" y1="0" x2="{half}" y2="{n}" stroke="#202020" stroke-width="0.08"/>'
        f'<line x1="0" y1="{half}" x2="{n}" y2="{half}" stroke="#202020" stroke-width="0.08"/>'
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {n} {n}"><title>{n} queens in four quadrants</title>'
        f"{squares}{cut}{queens}</svg>\n"
    )


if __name__ == "__main__":
    (HERE / "board8.svg").write_text(nqueens.to_svg(FIRST, size=320))
    (HERE / "quadrants8.svg").write_text(quadrants(FIRST))
