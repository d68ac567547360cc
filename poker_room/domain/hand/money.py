"""The rake (637a.17) and the jackpot contributions (637a.15(c), 637a.16(c)) as the hand
takes them."""

from __future__ import annotations

from poker_room.domain.rake import rake_for_pot


class MoneyMixin:
    """Part of :class:`poker_room.domain.hand.Hand`."""

    def _on_RakeTaken(self, d) -> None:
        self._rake_taken += d["amount"]

    def _on_JackpotContributionTaken(self, d) -> None:
        pass

    def _take_rake(self) -> None:
        due = rake_for_pot(self.rules.rake, self._pot_total)
        if due > self._rake_taken:
            self._emit("RakeTaken", amount=due - self._rake_taken, total=due,
                           kind=self.rules.rake.kind)
