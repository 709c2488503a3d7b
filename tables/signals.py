"""Signals other apps listen to (tournaments records busts from them).

``hand_completed`` is sent inside the writing transaction, right after a hand
reached its end (pots awarded, final stacks written to the seats) or was
declared a misdeal.  Keyword arguments: ``table`` (the locked
:class:`tables.models.Table`), ``hand`` (:class:`tables.models.Hand`, status
``complete`` or ``misdeal``), ``start_stacks`` and ``final_stacks`` (dicts
seat number -> chips, ints).  A receiver that raises aborts the transaction,
so receivers must only add rows of their own.
"""

from django.dispatch import Signal

hand_completed = Signal()
