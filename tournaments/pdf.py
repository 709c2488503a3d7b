"""The print-styled pages of a tournament (seat cards, table sheets, payout
slips, the results) also as a PDF file, rendered by WeasyPrint from the same
HTML and print CSS (``?format=pdf`` on each page's view).

WeasyPrint needs Debian's pango (``libpango-1.0-0``, ``libpangoft2-1.0-0``)
and a font (``fonts-dejavu-core``); ``.ci/run`` installs them.  Stylesheets
are read from the static files on disk, never over the network.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


def wants_pdf(request: HttpRequest) -> bool:
    """Whether the request asks for the page as a PDF (``?format=pdf``)."""
    return request.GET.get("format") == "pdf"


PDF_BASE = "html, body { height: auto !important; } main { min-height: 0 !important; }"
"""The screen's full-height body would hold a PDF to its first page: pages flow on in a PDF."""

_STYLESHEET = re.compile(r'<link rel="stylesheet" href="([^"]+)"\s*/?>')


def _stylesheets(html: str) -> tuple[str, list[str]]:
    """``html`` without its stylesheet links, and the files on disk they name (the app's static files, in
    order; any other link is dropped), so WeasyPrint reads the styles from disk and never the network."""
    prefix = urlsplit(settings.STATIC_URL).path
    files = []
    for href in _STYLESHEET.findall(html):
        path = urlsplit(href).path
        found = finders.find(path[len(prefix) :]) if path.startswith(prefix) else None
        if found:
            files.append(str(found))
    return _STYLESHEET.sub("", html), files


def pdf_response(
    request: HttpRequest, template: str, context: dict, filename: str, *, page_css: str = ""
) -> HttpResponse:
    """Render ``template`` with ``context`` (plus ``pdf: True``) to a PDF with the
    page's print styles and answer it as ``application/pdf``, a download named
    ``filename``.  ``page_css`` -- extra CSS for the PDF only (e.g. an
    ``@page`` size a browser's print dialog would not take)."""
    from weasyprint import CSS, HTML  # imported on use: pango loads only when a PDF is asked for

    html, files = _stylesheets(render_to_string(template, {**context, "pdf": True}, request=request))
    stylesheets = [CSS(filename=f) for f in files] + [CSS(string=PDF_BASE + page_css)]
    document = HTML(string=html)  # no base URL: nothing else is fetched (scripts are not run)
    response = HttpResponse(document.write_pdf(stylesheets=stylesheets), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
