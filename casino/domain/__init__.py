"""Pure domain code shared by every game: no Django imports here (DESIGN §2)."""
