"""Floor work as pure functions: the chip-action interpreter and the floor procedures."""
