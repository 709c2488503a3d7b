"""``manage.py makemessages`` that also knows the pure core's markers.

The pure core (``poker/``, no Django) marks its texts with ``_N(msgid)`` and
``_NC(context, msgid)`` (:mod:`poker.i18n`); Django's command has no option
for extra xgettext keywords, so this subclass adds them to its
``xgettext_options`` (the documented way to extend it).  ``make messages``
runs it for German and compiles the catalogue.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=_N", "--keyword=_NC:1c,2"]
