"""Hand evaluation of the house-banked games (Lunar Poker, Five Card Hi-Lo)."""
