"""Drawing a game's map to a file with matplotlib (the `plot` extra): the one place that picks
the format from the suffix, renders without pyplot (nothing global) and turns a failed write
into a one-line error. Each game draws its own map onto the axes it is given."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from henderson.core.errors import HendersonError

FORMATS = {".svg": "svg", ".png": "png"}
SIDE_COLOURS = {"us": "#1d4ed8", "jp": "#b91c1c"}


class MapDrawError(HendersonError, ValueError):
    """The map cannot be drawn to the requested file."""


def draw_to(path: Path, size: tuple[float, float], draw: Callable[[Axes], None], dpi: int = 120) -> None:
    """Draw onto fresh axes with `draw` and write them to `path` (.svg or .png).

    Raises MapDrawError for another suffix or an unwritable file."""
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        suffix = path.suffix or "no suffix"
        raise MapDrawError(f"{path}: cannot draw a map as {suffix!r}; use .svg or .png")
    fig = Figure(figsize=size)
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    ax.set_aspect("equal")
    ax.axis("off")
    draw(ax)
    try:
        # text stays text in an SVG (searchable, and thousands of hex numbers write quickly)
        with rc_context({"svg.fonttype": "none"}):
            fig.savefig(path, format=fmt, dpi=dpi, bbox_inches="tight")
    except OSError as exc:
        raise MapDrawError(f"{path}: cannot write the map: {exc.strerror or exc}") from None
