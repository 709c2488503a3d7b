"""The reports' charts as server-side SVG drawn by pygal (issue 28): hands per hour by table over the shift
and occupancy (players per hand) by game.  No script in the SVG (pygal's tooltips need one from outside):
the figures are in the tables under each chart."""

from __future__ import annotations

import re

import pygal
from pygal.style import Style

from office.reports import TableRow

STYLE = Style(
    background="transparent",
    plot_background="transparent",
    foreground="#eef3f8",
    foreground_strong="#eef3f8",
    foreground_subtle="#2b3a4b",
    font_family="system-ui, sans-serif",
    label_font_size=12,
    major_label_font_size=12,
    legend_font_size=13,
    title_font_size=15,
    value_font_size=13,
    colors=("#f5c542", "#4dabf7", "#9ff0bd", "#ff8787", "#b197fc", "#ffa94d", "#63e6be", "#f783ac"),
)


_SCRIPT = re.compile(r"<script\b.*?</script>", re.S)


def _svg(chart) -> str:
    """The chart's SVG text without pygal's inline configuration script (no script runs in the page's SVG)."""
    return _SCRIPT.sub("", chart.render(is_unicode=True))


def _config(**kwargs):
    return {
        "style": STYLE,
        "js": [],
        "disable_xml_declaration": True,
        "width": 560,
        "height": 300,
        "explicit_size": False,
        "legend_at_bottom": True,
        "print_values": False,
        **kwargs,
    }


def hands_per_hour_chart(title: str, labels: list[str], series: dict[str, list[int]], no_data: str) -> str:
    """A bar chart (SVG text): ``series`` (table name -> hands started per hour), a group of bars per hour of
    ``labels``."""
    chart = pygal.Bar(**_config(title=title, no_data_text=no_data, print_values=True, max_scale=6))
    chart.x_labels = labels
    for name, counts in series.items():
        chart.add(name, counts)
    return _svg(chart)


def occupancy_chart(title: str, games: list[TableRow], no_data: str) -> str:
    """A bar chart (SVG text): players dealt in per hand, by game."""
    chart = pygal.Bar(**_config(title=title, no_data_text=no_data, range=(0, 10), print_values=True))
    for row in games:
        chart.add(row.game or "—", [row.occupancy])
    return _svg(chart)
