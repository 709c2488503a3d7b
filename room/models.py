"""Models of the cash floor (moved here from ``tables``; their database tables keep their names)."""
