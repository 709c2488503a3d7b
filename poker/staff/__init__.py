"""Staff arithmetic of the room (issue 28), pure Python: the dealers' push rotation with fair breaks
(:mod:`poker.staff.rotation`) and players' hours from the hands they were dealt in
(:mod:`poker.staff.hours`)."""
