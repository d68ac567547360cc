"""A report's chart drawn as an inline SVG on the server (pages have no front-end build):
one point per label (``label``; a point may carry the words a reader sees, ``name``, and a
short ``tick`` for the axis), a line through them, the expected band shaded where the points carry
one, a point outside its band drawn in red, and the value axis labelled with its name
(``axis``) and its unit (``unit``) on every tick."""

from __future__ import annotations

from html import escape
from typing import Any

W, H, PAD = 720, 220, 36
#: where the plot begins: right of the value axis's labels ("-209.1 %"), so no point is
#: drawn over them
LEFT = 64


def svg(chart: dict[str, Any] | None) -> str:
    if not chart or not chart.get("points"):
        return ""
    pts = chart["points"]
    values = [p["value"] for p in pts if p.get("value") is not None]
    bands = [v for p in pts for v in (p.get("low"), p.get("high")) if v is not None]
    if not values:
        return ""
    lo, hi = min(values + bands + [0.0]), max(values + bands + [0.0])
    if hi == lo:
        hi = lo + 1.0
    step = (W - LEFT - PAD) / max(len(pts) - 1, 1)

    def x(i: int) -> float:
        return LEFT + i * step

    def y(v: float) -> float:
        return H - PAD - (v - lo) / (hi - lo) * (H - 2 * PAD)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" role="img" '
             f'aria-label="{escape(chart.get("title", "chart"))}" class="chart">',
             f'<line x1="{LEFT}" y1="{y(0):.1f}" x2="{W - PAD}" y2="{y(0):.1f}" '
             'stroke="#999" stroke-dasharray="4 3"/>']
    for i, p in enumerate(pts):
        if p.get("low") is not None and p.get("high") is not None:
            parts.append(f'<rect x="{x(i) - 6:.1f}" y="{y(p["high"]):.1f}" width="12" '
                         f'height="{max(y(p["low"]) - y(p["high"]), 1):.1f}" fill="#dde8f5"/>')
    line = " ".join(f"{x(i):.1f},{y(p['value']):.1f}" for i, p in enumerate(pts)
                    if p.get("value") is not None)
    parts.append(f'<polyline points="{line}" fill="none" stroke="#246" stroke-width="1.5"/>')
    for i, p in enumerate(pts):
        if p.get("value") is None:
            continue
        colour = "#c00" if p.get("flag") else "#246"
        parts.append(f'<circle cx="{x(i):.1f}" cy="{y(p["value"]):.1f}" r="3.5" '
                     f'fill="{colour}"><title>{escape(str(p.get("name", p["label"])))}: '
                     f'{p["value"]:.2f} {escape(chart.get("unit", ""))}</title></circle>')
        if len(pts) <= 31:
            parts.append(f'<text x="{x(i):.1f}" y="{H - 8}" font-size="9" '
                         f'text-anchor="middle">{escape(str(p.get("tick", p["label"])))}</text>')
    # the axis says its unit: a bare "12.5" read as dollars or a count as easily as a %
    unit = f" {escape(chart['unit'])}" if chart.get("unit") else ""
    if chart.get("axis"):
        parts.append(f'<text x="4" y="12" font-size="10">{escape(chart["axis"])}</text>')
    parts.append(f'<text x="4" y="{y(hi) + 4:.1f}" font-size="10">{hi:.1f}{unit}</text>'
                 f'<text x="4" y="{y(lo) + 4:.1f}" font-size="10">{lo:.1f}{unit}</text></svg>')
    return "".join(parts)
