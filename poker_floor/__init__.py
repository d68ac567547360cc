"""The poker floor (issue 24): waitlists and interest lists, calling and seating from them,
must-move games, table changes, opening and breaking tables by lot, paging, the public live
games feed and its kiosk, estimated waits and the fairness record.

Every fact is an event in the game's list stream ``waitlist-<list id>`` (one list per game
per property, a choice of this product rather than a rule: the game's stakes are those of
its Rules Submission in force, the same at every table, so one list serves them all and
is named by them, as the room may announce its games and limits, 637a.9(c)). The read
models in :mod:`poker_floor.models` are its projection. A player's name, phone and e-mail
are sealed in the events with a key of the list entry's own (:mod:`casino.personal_data`):
erasing the key erases them.

The event catalogue (``data`` of each event in ``waitlist-<id>``)::

    WaitlistOpened      {game, name, open_table_at}
    WaitlistConfigured  {open_table_at}
    PlayerListed        {entry, details: <sealed {name, phone, email}>, source: floor|kiosk,
                         kind: player|change|broken, from_table, from_seat,
                         seated_at (change|broken: when the seat's player sat down)}
    SeatOffered         {call, entry, table, seat, deadline, reason, passed: [entry ...],
                         by_lot: bool}
    CallTimedOut        {call, entry, missed, moved_to: position | None (removed)}
    CallCancelled       {call, entry, reason}
    PlayerSeatedFromList {call, entry, table, seat, stays_listed (the entry stays as a
                         table change from this seat)}
    PlayerDelisted      {entry, reason}
    MustMoveSet         {main_table, feeders: [table ...]}
    MustMoveCleared     {main_table}
    PlayerMoved         {from_table, from_seat, to_table, to_seat, why: must_move|
                         table_change|table_broken, order: [...], reason, entry}
    TableOpenedByLot    {table, draw: [{entry, seat}]}
    TableBrokenByLot    {table, draw: [{from_seat, to_table, to_seat}], listed: [entry]}
    PageSent            {call, entry, channel, message: <sealed text>}
    PageFailed          {call, entry, channel, error}
"""
