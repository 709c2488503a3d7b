"""The manager's office (issue 28): the player record, the dealer rotation board and the room's reports.

The top of the layers beside ``pokerfloor``: it reads ``tables``, ``rules``, ``room`` and ``tournaments``
and writes through their services (``tables.players``, ``tables.dealers``)."""
