"""The pure core's texts through gettext (standard library only: no Django here).

The core writes each user-facing text once, as an English msgid marked with :func:`_N`,
with named ``%(name)s`` placeholders; :func:`translate` looks it up in the project's own
catalogue, ``locale/<lang>/LC_MESSAGES/django.mo`` under the repository root (the same
catalogue Django uses), read with Python's :mod:`gettext`, and fills the placeholders.
Results keep their ``*_en``/``*_de`` JSON keys, each filled by ``translate(msgid, lang)``.

Where one English text has two German renderings (a rulebook words it its own way), the
msgid carries a context: ``_NC("casino-cash", msgid)``, translated with ``context=``.

Extraction: ``_N`` and ``_NC`` are not among Django's default keywords, so ``makemessages``
needs ``--keyword=_N --keyword=_NC:1c,2`` to pick the core's msgids up (``make messages``
passes both)::

    python manage.py makemessages -l de --keyword=_N --keyword=_NC:1c,2

A msgid with placeholders is %-formatted, so a literal percent sign in it is written
``%%`` (``"under 50%% of the minimum raise of %(needed)s"``); a msgid without
placeholders is returned as is.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

__all__ = ["LANGUAGES", "LOCALE_DIR", "_N", "_NC", "catalogue", "translate", "both"]

#: The languages every core text is given in, in the order of the ``*_en``/``*_de`` fields.
LANGUAGES = ("en", "de")
#: ``locale/`` of the repository (the directory above the ``poker`` package).
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def _N(msgid: str) -> str:
    """Mark ``msgid`` for extraction (``makemessages --keyword=_N``) and return it unchanged."""
    return msgid


def _NC(context: str, msgid: str) -> str:
    """Mark ``msgid`` with a ``context`` for extraction (``--keyword=_NC:1c,2``) and return
    the msgid unchanged; pass the same ``context=`` to :func:`translate`."""
    return msgid


@cache
def catalogue(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (``locale/<lang>/LC_MESSAGES/django.mo``), read
    once; a :class:`gettext.NullTranslations` (every msgid as is) for English or when the
    language has no catalogue."""
    if lang == "en":
        return gettext.NullTranslations()
    try:
        return gettext.translation("django", localedir=LOCALE_DIR, languages=[lang])
    except OSError:
        return gettext.NullTranslations()


def translate(msgid: str, lang: str, context: str | None = None, **params: object) -> str:
    """``msgid`` in ``lang`` (``"en"``, ``"de"``; under ``context`` when marked with
    :func:`_NC`), its ``%(name)s`` placeholders filled from ``params`` (values as given:
    format numbers before, see ``poker.floor.interpret``). Falls back to the English msgid
    when the catalogue has no translation.
    Raises KeyError when a placeholder has no value in ``params``."""
    cat = catalogue(lang)
    text = cat.pgettext(context, msgid) if context is not None else cat.gettext(msgid)
    return text % params if params else text


def both(msgid: str, context: str | None = None, **params: object) -> tuple[str, str]:
    """``(English, German)``: :func:`translate` in the order of the ``*_en``, ``*_de`` fields."""
    return translate(msgid, "en", context, **params), translate(msgid, "de", context, **params)
