"""THE catalogue of refusal sentences (issue 23, item 3): for every problem code a person
could see, one sentence in plain words, written for the dealer, floorperson, cashier or
clerk who meets it — no jargon, no code names. The console shows a refusal as its code's
sentence (``refusal_sentence``), beside the service's own message, which gives the
particulars (the amount, the seat, the time).

A declaration's ``refusals`` (casino.declared) add to this catalogue; a code has one
sentence everywhere, so a second, different sentence for a code is refused at import.
tests/casino/test_refusal_sentences.py walks the source and fails on a code with none.

Pure data and two small functions.
"""

from __future__ import annotations

from collections.abc import Mapping

#: what a person reads for a code no one wrote a sentence for
GENERAL = "This was refused; nothing was recorded."

_SENTENCES: dict[str, str] = {
    # --- who may do it -----------------------------------------------------------------
    "role_required": "Your roles do not allow this step.",
    "permission_denied": "Your roles do not allow this step.",
    "not_authenticated": "You are not signed in; sign in and try again.",
    "authentication_failed": "The username or password is wrong.",
    "login_locked_out": "Too many failed sign-ins: this account is locked for "
                        "a while; an administrator or compliance officer can lift it.",
    "login_throttled": "Too many wrong passwords from this terminal; wait a few seconds "
                       "and try again.",
    "no_staff_profile": "Your login is not enrolled as staff of a property.",
    "not_assigned_to_table": "You are not the dealer assigned to this table.",
    "segregation_of_duties": "This person holds a role that may not be held together with "
                             "this one.",
    "throttled": "Too many requests in a short time; wait a moment and try again.",
    "no_token": "This request was not made with an API token, so there is none to revoke.",
    # --- two people, each a different step ---------------------------------------------
    "verifier_is_inspector": "You recorded this deck's inspection; a different floorperson "
                             "must verify it.",
    "verifier_is_counter": "You counted this deck; a different person must sign the count.",
    "approver_is_author": "You wrote this version of the rules; another compliance officer "
                          "must approve it.",
    "approver_is_submitter": "You submitted this version of the rules; another compliance "
                             "officer must approve it.",
    "withdrawal_by_requester": "You asked for this withdrawal; another compliance officer "
                               "must confirm it.",
    "approver_is_requester": "You asked for this role; another person must approve it.",
    "self_grant": "Nobody may give a role to themselves.",
    "self_deactivate": "Nobody may deactivate their own login.",
    "self_reset": "Change your own password with your old one, on your own page.",
    "self_unlock": "Nobody may lift their own lock-out; ask another administrator or "
                   "compliance officer.",
    "answer_shown_once": "This step was recorded and its answer was shown once; it is "
                         "not shown again.",
    "same_person": "You did the first step of this; a different person must do this one.",
    "signed_already": "You have already signed this; a different person signs this step.",
    "worked_the_table": "You worked at this table that gaming day, so you may not count its "
                        "drop box.",
    # --- not found (including another property's) --------------------------------------
    "not_found": "That could not be found.",
    "deck_not_found": "That deck could not be found.",
    "table_not_found": "That table could not be found.",
    "round_not_found": "That round or hand could not be found at this table.",
    "hand_not_found": "That hand could not be found.",
    "rules_submission_not_found": "That Rules Submission could not be found.",
    "staff_not_found": "That member of staff could not be found.",
    "role_grant_not_found": "That role request could not be found.",
    "exception_not_found": "That finance exception could not be found.",
    "fund_not_found": "That jackpot fund could not be found.",
    "count_not_found": "That payout-box count could not be found.",
    "hit_not_found": "That Bad Beat hand could not be found in this fund.",
    "award_not_found": "There is no High Hand award for that period and slip.",
    "slip_not_found": "That slip could not be found.",
    "box_not_in_count": "That table's payout box is not part of this count.",
    "time_charge_not_found": "No time charge was assessed for that period.",
    "report_not_found": "There is no report of that name.",
    "stream_not_found": "There are no events under that name.",
    "drop_not_counted": "This table's drop box has not been counted for that day yet.",
    # --- someone else got there first / it changed -------------------------------------
    "stream_version_conflict": "Someone else recorded a step here since you opened it; "
                               "look at it again and decide again.",
    "stale_hand_version": "The hand has moved on since you last looked; reload it and "
                          "decide again.",
    "stale_round_version": "The round has moved on since you last looked; reload it and "
                           "decide again.",
    "conflict": "This cannot be done in the state it is in now.",
    "idempotency_key_reused": "This form was already sent with different values; open it "
                              "again.",
    "idempotency_key_in_flight": "The same request is still being recorded; wait a moment "
                                 "and send it again.",
    "invalid_idempotency_key": "The request's retry key is empty, too long or "
                               "unreadable; nothing was recorded.",
    "digest_exists": "A digest was written at the same moment; try again.",
    "digest_store_unavailable": "The digest store cannot be reached just now; try again "
                                "later.",
    "checked": "The display was already checked for that day.",
    "reminded": "The reminder was already sent.",
    "award_decided": "That award was already paid or closed as uncollected.",
    # --- the request itself --------------------------------------------------------------
    "invalid": "Something in this form is not acceptable.",
    "invalid_input": "A field is missing or not filled in correctly.",
    "invalid_data": "A value is too large or contains a character that cannot be stored.",
    "malformed_request": "The form could not be read; open it again.",
    "bad_request": "The request could not be read; open the page again.",
    "too_many_fields": "The form sent too many fields.",
    "request_too_large": "What was sent is too large.",
    "method_not_allowed": "This page does not accept that kind of request.",
    "not_acceptable": "This page cannot answer in the format asked for.",
    "unsupported_media_type": "This page cannot read what was sent in that format.",
    "invalid_paging": "The page asked for does not exist in this list.",
    "invalid_json": "A line is not in the expected format.",
    "error": "Something went wrong; nothing was recorded.",
    "internal_error": "Something went wrong on the server; nothing was recorded and the "
                      "error was logged.",
    # --- the event log (what a person meets only if something is wrong) -------------------
    "event_store_error": "The record could not be written; nothing was recorded.",
    "invalid_event": "The record could not be written as given; nothing was recorded.",
    "invalid_expected_version": "The form's version is not a valid one; open it again.",
    "metadata_actor_missing": "The record could not be written without who did it.",
    "payload_not_json": "The record could not be written as given; nothing was recorded.",
    "payload_too_large": "The record is too large to be written.",
    "unknown_stream_type": "The record could not be written under that kind of record.",
    # --- staff, roles, logins -------------------------------------------------------------
    "username_taken": "That username (or credential number) is already enrolled.",
    "credential_number_taken": "That Board credential number is already enrolled.",
    "weak_password": "That password is too weak; choose a longer one that is not common.",
    "wrong_password": "The old password is wrong.",
    "unknown_role": "There is no such role.",
    "role_already_held": "This person already holds that role.",
    "role_not_held": "This person does not hold that role.",
    "grant_already_requested": "A request for that role is already waiting for approval.",
    "grant_already_decided": "This role request was already approved or turned down.",
    "staff_inactive": "This member of staff's login is deactivated.",
    "two_factor_already_enrolled": "A second factor is already set up; an administrator "
                                   "resets it first.",
    "two_factor_not_enrolled": "This person has no second factor to reset.",
    "invalid_code": "Type the six digits the authenticator app shows.",
    "wrong_code": "That code does not match; type the code the app shows now.",
    "code_required": "This login needs a second factor: give the code the authenticator "
                     "app shows, or a recovery code.",
    "code_used": "That code has already been used; wait for the next code the app shows, "
                 "or give an unused recovery code.",
    "code_throttled": "Too many wrong codes in a row; wait a few seconds and try again.",
    "two_factor_enrolment_required": "This login needs a second factor and has none yet; "
                                     "set up an authenticator first.",
    "two_factor_not_needed": "This login's roles need no second factor.",
    "invalid_secret": "The authenticator's secret is 32 letters and digits (base32).",
    # --- Rules Submissions ------------------------------------------------------------------
    "rules_wrong_state": "This version of the rules is not at the step this needs.",
    "rules_version_in_effect": "This version is in effect and can never be edited; write a "
                               "new version instead.",
    "rules_version_not_draft": "Only a draft can be edited; this version is past that.",
    "effective_time_in_past": "The time it takes effect must be now or later.",
    "withdrawal_already_requested": "A withdrawal of this version is already waiting for "
                                    "a second compliance officer.",
    "withdrawal_not_requested": "No withdrawal of this version is waiting for "
                                "confirmation.",
    "no_rules_in_effect": "No approved Rules Submission is in effect for this game.",
    "schema_not_installed": "This game's rules form is not installed.",
    "invalid_option": "One of the rules' options is not acceptable.",
    "invalid_option_type": "One of the rules' options is the wrong kind of value.",
    "invalid_choice": "Choose one of the values offered.",
    "option_required": "One of the rules' options is required and missing.",
    "option_not_allowed": "One of the rules' options is not allowed for this game.",
    "odd_chip_fixed_by_chapter": "The chapter already says who gets the odd chip in this "
                                 "game; the rules may not name another player.",
    "option_out_of_range": "One of the rules' values is outside what is allowed.",
    "unknown_option": "One of the rules' options is not an option of this game.",
    "table_limits_inverted": "The maximum is below the minimum.",
    "levels_not_increasing": "The rake levels must rise from one to the next.",
    "rake_above_maximum": "The rake levels add up to more than the maximum rake per hand.",
    "rake_percentage_too_high": "The rake percentage is higher than allowed.",
    "shares_not_whole": "The payout shares must add up to 100 percent.",
    "invalid_rules": "A table rule is missing or out of range.",
    # --- tables ---------------------------------------------------------------------------------
    "table_name_taken": "There is already a table with that name.",
    "invalid_name": "Give the table a name.",
    "invalid_game": "Choose one of the games offered.",
    "invalid_positions": "Give the number of player positions as a whole number.",
    "too_many_positions": "This game has fewer positions than that.",
    "field_not_changeable": "That cannot be changed on a table; configure a new table "
                            "instead.",
    "table_open": "Close the table before changing it.",
    "table_already_open": "The table is already open.",
    "table_closed": "The table is closed.",
    "decks_in_play": "Take the decks in play out before changing the equipment.",
    "invalid_device": "Choose the shuffler or the shoe.",
    "no_such_device": "This table has no such automated device.",
    "equipment_unchanged": "The device is already in that state.",
    "out_of_order_sign_required": "Cover the device or put an out-of-order sign on it "
                                  "first.",
    "not_a_dealer": "That person is not a dealer of this property.",
    # --- decks --------------------------------------------------------------------------------
    "deck_wrong_state": "The deck is not at the step this needs.",
    "deck_not_at_table": "The deck is not at a table.",
    "deck_not_in_play": "That deck is not in play at this table.",
    "deck_defective": "The dealer found defects, so the deck cannot be accepted.",
    "deck_change_due": "The deck has reached its time limit and must be changed.",
    "deck_count_due": "The deck must be counted before it deals again.",
    "no_count_to_verify": "There is no count of this deck waiting to be signed.",
    "no_counting_shuffler": "This table has no working counting shuffler.",
    "no_deck_in_play": "The table has no deck in play.",
    "second_deck_missing": "A poker table keeps two decks in play; put the second one in "
                           "play.",
    "too_many_decks_in_play": "The table already has as many decks in play as it may; "
                              "take one out.",
    "same_back_colour": "The deck in play has backs of the same colour; the table's two "
                        "decks have backs of different colours.",
    "wrong_deck": "The decks take turns: deal this round with the other deck.",
    "hand_dealing_needs_shuffler": "A game dealt by hand needs a working automated "
                                   "shuffler at the table.",
    "shuffler_unavailable": "This table has no working automated shuffler.",
    "invalid_removal_reason": "Choose one of the reasons offered for taking the deck out.",
    "invalid_shuffle_method": "Choose a shuffle by hand or by the automated shuffler.",
    "invalid_dealing_method": "Poker is dealt from the dealer's hand.",
    "invalid_deck_step": "That deck step is not acceptable.",
    "wrong_spread": "Spread the cards for the number of players the rules say.",
    "cut_too_shallow": "The cut must be at least ten cards deep.",
    "cut_too_deep": "The cut is deeper than the deck.",
    "invalid_permutation": "The deck order given is not a rearrangement of the deck.",
    # --- cards --------------------------------------------------------------------------------
    "invalid_card": "A card is not written as a card (for example As or 10h).",
    "duplicate_card": "The same card is given twice.",
    "wrong_card_count": "The number of cards is wrong.",
    "card_not_in_deck": "That card was found face up and may not be used this round.",
    "card_already_dealt": "That card has already been dealt.",
    "card_not_held": "That player does not hold that card.",
    "card_not_in_hand": "That card is not one of this position's cards.",
    # --- rounds (house-banked) ----------------------------------------------------------------
    "round_in_progress": "Close the round in progress first.",
    "round_closed": "The round is already closed.",
    "round_already_open": "This round is already open.",
    "round_not_open": "The round has not been opened.",
    "round_settled": "Every wager is settled; close the round.",
    "round_not_settled": "A wager is not settled yet; lock in the decisions or void the "
                         "round first.",
    "not_a_banked_round": "This round is not a house-banked round.",
    "invalid_round_command": "That step is not one the game's rules allow.",
    "round_state_conflict": "That step cannot be taken at this point of the round.",
    "unknown_command": "That is not a step of a round.",
    "invalid_command": "That is not a step that can be recorded.",
    "invalid_round_id": "The round is not named correctly.",
    "unknown_game": "That is not one of the games.",
    "invalid_player": "Name the player correctly.",
    "invalid_floor_command": "This step on the poker floor's list is not valid as given.",
    "invalid_position": "Choose a position at this table.",
    "position_taken": "That position is another player's.",
    "one_position_per_player": "This player already wagers at another position.",
    "no_wagers": "No position has an Ante.",
    "ante_required": "Place the Ante at this position first.",
    "wager_not_offered": "The table's rules do not offer that wager.",
    "unknown_wager": "That wager is made by a decision after the deal, not placed before.",
    "wager_already_placed": "This position already has that wager; withdraw it to change "
                            "the amount.",
    "wager_after_no_more_bets": "No wager may be made, raised or withdrawn after \"no "
                                "more bets\".",
    "outside_table_limits": "The wager must be between the table minimum and maximum.",
    "no_such_wager": "This position has no such wager.",
    "wagers_depend_on_ante": "Withdraw the position's other wagers before the Ante.",
    "super_below_ante": "The Super Wager must be at least the Ante.",
    "super_required": "Each player must place a Super Wager on their own hand.",
    "super_on_empty_position": "A Super Wager is on a position with no hand this round; "
                               "withdraw it first.",
    "invalid_super_target": "A Super Wager on another hand must name another position.",
    "invalid_wager": "The wager amount is not acceptable.",
    "invalid_amount": "Give the amount as a positive number of dollars and cents.",
    "no_more_bets_first": "Announce \"no more bets\" before dealing.",
    "already_dealt": "The cards have already been dealt.",
    "deal_mode_ambiguous": "Give either the deck to deal from or the cards dealt, not both.",
    "cards_not_expected": "The deal comes from the deck; do not give the cards.",
    "invalid_deal": "Give the cards of each position with an Ante.",
    "invalid_deal_method": "Choose one of the ways of dealing offered.",
    "deal_method_mismatch": "This table deals another way: from its shoe or hand as set up.",
    "placed_by_not_applicable": "Only a manual dealing shoe is loaded by the dealer or the "
                                "shuffler.",
    "invalid_placed_by": "Say whether the dealer or the shuffler placed the deck in the shoe.",
    "placed_by_required": "Say whether the dealer or the shuffler placed the deck in the "
                          "manual shoe.",
    "card_hand_required": "Attest that each card was taken from the manual shoe with the "
                          "hand closest to it.",
    "no_working_shuffler": "This table has no working shuffler to place the deck in the shoe.",
    "wrong_dealing_hand": "Each card is taken from the manual shoe with the hand closest to "
                          "it.",
    "card_hand_not_applicable": "The dealing hand is recorded only for a manual dealing "
                                "shoe.",
    "drawn_card_not_next": "The card drawn in error must be used as the next card.",
    "card_face_exposed": "A card drawn with its face exposed is reported as a card found "
                         "face up.",
    "no_stub_in_game": "This game has no stub step; count the deck after the round.",
    "stub_before_deal": "The stub is removed after the cards have been dealt.",
    "stub_already_discarded": "The stub is already in the discard rack.",
    "invalid_stub_count": "Give the number of cards counted in the stub, 0 to 52.",
    "stub_count_right": "The stub count is right; a misdeal is reported as a wrong card "
                        "count.",
    "misdealt_needs_count": "A misdeal keeps the deck only if 52 cards remain: give the "
                            "cards counted in the stub and the cards the players and the "
                            "dealer hold.",
    "held_without_misdeal": "The cards held are counted only for a misdeal.",
    "verbal_cash_wager": "A verbal wager with cash is not accepted; wager with chips or "
                         "plaques.",
    "invalid_instrument": "Wagers are made with value chips or plaques.",
    "invalid_shuffler": "Choose one of the shufflers offered.",
    "duplicate_position": "A position is given twice.",
    "deck_exhausted": "The deck has no more cards to deal.",
    "no_dealer_up_card": "In this game the dealer's cards are all dealt face down.",
    "dealer_up_card_not_last": "The dealer's face-up card is the dealer's last card.",
    "cards_not_dealt": "The cards have not been dealt yet.",
    "decisions_locked": "All decisions are already locked in.",
    "decisions_pending": "A position has not decided yet.",
    "decision_already_made": "This position has already decided.",
    "unknown_decision": "Choose play or forfeit.",
    "out_of_turn": "Ask the positions in turn, starting at the dealer's left.",
    "position_folded": "This position has no Bet Wager in play.",
    "position_abandoned": "This position's wagers were abandoned.",
    "position_not_in_round": "This position has no hand this round.",
    "draw_first": "This position draws before folding or betting.",
    "not_drawing": "Cards are drawn after all decisions are locked in, in turn.",
    "already_drawn": "This position has already drawn.",
    "buy_has_no_discard": "A bought sixth card is taken without discarding.",
    "exchange_count": "A player exchanging discards between two and five cards.",
    "no_draw_in_game": "Five Card Hi-Lo has no draw.",
    "bet_not_twice_ante": "The Bet must be twice the Ante.",
    "play_not_equal_ante": "The Play Wager must equal the Ante.",
    "play_first": "Make the Play Wager before setting the hands.",
    "options_fee_not_ante": "The Options fee to force the dealer must equal the Ante.",
    "no_options_fee": "This position placed no Options fee.",
    "force_not_offered": "Forcing the dealer exists only in the Lunar Poker of chapter 589.",
    "force_not_available": "A player may force the dealer only when the dealer does not "
                           "qualify.",
    "dealer_qualified": "The dealer qualifies, so the dealer cannot be forced.",
    "dealer_not_forced": "The dealer draws only when a player forced the dealer.",
    "wrong_dealer_discard": "The dealer discards the highest-ranking card.",
    "unexpected_forced_draw": "A forced dealer's card is given, but no player forced the "
                              "dealer.",
    "instant_hand_no_bet": "With an instant-payout hand the player declares it instead of "
                           "placing a Bet.",
    "no_instant_hand": "The instant payout is for a royal flush or straight flush in the "
                       "first five cards.",
    "already_declared": "This position has already declared its Super Wager hand.",
    "no_super_hand": "This position's cards pay no Super Wager.",
    "no_super_wager": "This position placed no Super Wager.",
    "no_setting_in_game": "Lunar Poker hands are not set high and low.",
    "hands_already_set": "Once set and placed face down, the hands may not be changed.",
    "set_other_hand_first": "Set this player's other hand first.",
    "hilo_illegal_setting": "The high and low hands are not set as the rules allow.",
    "hilo_cards_not_dealt": "The high and low hands must be exactly the five cards dealt.",
    "hilo_low_card_above_high": "The three higher cards go in the high hand.",
    "hilo_two_aces_low": "At most one ace may go in the low hand.",
    "hilo_wrong_hand_sizes": "The high hand is three cards and the low hand two.",
    "invalid_setting": "The hands are not set correctly.",
    "lunar_invalid": "That is not allowed in Lunar Poker.",
    "unknown_rulebook": "That is not one of the Lunar Poker rulebooks.",
    "invalid_irregularity": "The irregularity is not described correctly.",
    "unknown_irregularity": "That is not one of the irregularities offered.",
    "irregularity_not_applicable": "That irregularity does not apply to this round now.",
    "already_reported": "This card has already been reported face up.",
    "invalid_script": "The round's script is not written correctly.",
    "not_enumerable": "This paytable is worked out by simulation, not by counting every "
                      "hand.",
    "invalid_report_option": "A report option is not acceptable.",
    "invalid_rounds": "Give at least two rounds.",
    "invalid_seed": "Give the seed as a whole number, zero or more.",
    "unknown_paytable": "There is no such paytable.",
    "unknown_hand": "That is not a hand on the paytable.",
    # --- hands (games and evaluation) ---------------------------------------------------------
    "invalid_hand_input": "A field of the hand is missing or not of the right kind.",
    "missing_field": "A required field is missing.",
    "unexpected_field": "A field was given that this game does not use.",
    "unknown_stud_game": "That is not one of the stud games.",
    "stud_invalid": "That is not allowed in this stud game.",
    "no_players": "There are no players to compare.",
    "odd_chip_undecided": "No card decides who gets the odd chip of the tied hands.",
    # --- poker seats ----------------------------------------------------------------------------
    "not_a_poker_table": "This table is not a poker table.",
    "invalid_seat": "Choose a seat at this table.",
    "seat_taken": "That seat is taken.",
    "seat_empty": "Nobody is seated there.",
    "player_already_seated": "This player is already seated in the room.",
    "buy_in_below_minimum": "The buy-in is below the table's minimum.",
    "buy_in_above_maximum": "The table stakes may not exceed the maximum buy-in.",
    "invalid_paid_with": "Say whether the buy-in was paid in cash at the table or with "
                         "chips.",
    "not_whole_chips": "The amount must be whole chips of the table's smallest chip.",
    "chips_mid_hand": "Chips are added only between hands.",
    "seat_in_hand": "The player is in the hand in progress; fold the hand first.",
    "hand_in_progress": "Wait for the hand in progress to end.",
    "seat_away": "The player has already stepped away.",
    "seat_not_away": "The player has not stepped away.",
    "seat_not_playing": "Only a player who is playing can sit out.",
    "seat_not_sitting_out": "The player is not sitting out.",
    "stakes_not_verified": "Confirm the table stakes are as recorded before the player "
                           "returns.",
    "stakes_mismatch": "The table stakes are not what was recorded.",
    "reason_required": "Say why: this step is recorded with its reason.",
    "agreement_required": "The minimum bet is raised only when every player agrees.",
    "increase_above_maximum": "The rules allow a smaller raise of the minimum bet.",
    # --- poker hands ----------------------------------------------------------------------------
    "not_a_poker_hand": "This round is not a poker hand.",
    "too_few_players": "A hand needs at least two players seated and playing.",
    "too_many_players": "Too many players for this game.",
    "hand_closed": "The hand is over.",
    "hand_complete": "The hand is over.",
    "not_your_turn": "It is not this player's turn.",
    "not_in_hand": "That seat is not in this hand.",
    "invalid_action": "That action is not allowed here.",
    "bet_below_minimum": "The bet is below the minimum.",
    "bet_above_limit": "The bet is above the limit.",
    "raise_cap_reached": "The most raises allowed in this betting round have been made.",
    "check_raise_not_allowed": "Raising after checking is not allowed at this table.",
    "insufficient_table_stakes": "The player does not have enough table stakes for the "
                                 "forced bets and one minimum bet.",
    "invalid_button": "The button must be at a seat in the hand.",
    "invalid_button_draw": "Deal one card to every player for the button.",
    "invalid_stack": "Give each seat's table stakes in whole cents.",
    "invalid_stacks": "Give the table stakes of each seat dealt in.",
    "no_straddle": "This table does not offer a straddle.",
    "invalid_batch": "Give one or more actions.",
    "batch_too_large": "Too many actions at once.",
    "invalid_deck": "The deck is not given correctly.",
    "invalid_version": "The version given is not acceptable (a hand's last version seen, "
                       "or a report's final or preliminary).",
    "invalid_ruling": "Write the ruling (up to 2000 characters).",
    "misdeal_required": "More than one card face up in the deck is a misdeal.",
    "misdeal_too_late": "It is too late for a misdeal: two players have bet.",
    "exposure_choice_required": "Choose for each exposed card whether it plays for the pot "
                                "so far or the entire pot.",
    "not_a_board_game": "An exposed hole card is exchanged only in Hold'em and Omaha.",
    "too_late_to_exchange": "An exposed hole card is exchanged only while the hole cards "
                            "are dealt.",
    "unknown_event": "The hand holds a step that cannot be read.",
    "invalid_phh": "The hand history is not written correctly.",
    "phh_cannot_express": "This hand cannot be written as a PHH hand history (a fouled hand "
                          "refunded or dead out of turn); its record is the hand's "
                          "history.",
    "game_mismatch": "The Rules Submission is for a different game.",
    "not_a_poker_game": "That Rules Submission is not for a poker game.",
    "script_too_long": "The script has too many steps.",
    # --- poker time charges ----------------------------------------------------------------------
    "invalid_time_charge": "The time charge is not given correctly.",
    "invalid_period": "Give the period's start as a date and time.",
    "already_verified": "This period's time charges are already verified.",
    # --- finance: tray, slips, drop ---------------------------------------------------------------
    "invalid_finance_command": "A value in this form is not acceptable.",
    "invalid_denomination": "List the chips by denomination.",
    "negative_count": "A count is never negative.",
    "inventory_recorded_already": "This inventory slip is already recorded for the table "
                                  "today.",
    "opener_after_play": "The table has played today, so its opening inventory can no "
                         "longer be recorded.",
    "slip_out_of_order": "This inventory slip is not waiting to be signed: it is not "
                         "recorded yet, or it is signed already.",
    "fill_out_of_order": "This slip is not at the step this needs.",
    "fill_unsigned": "A fill or credit slip is not signed yet; sign or void it first.",
    "count_out_of_order": "This is not the next step of the count.",
    "drop_removed": "The drop box is removed, so a chip sale's cash has no box to go into.",
    "table_day_closed": "The table's closing inventory is recorded: nothing more today.",
    "gaming_day_over": "That gaming day is over for this step.",
    "exception_unexplained": "The exception has not been explained yet.",
    "exception_signed_off": "The exception is already signed off.",
    "invalid_explanation": "Write the explanation (up to 2000 characters).",
    "invalid_gaming_day": "Give the gaming day as a date that has begun.",
    "gaming_day_not_ended": "That gaming day has not ended yet.",
    "open_items": "Items of that gaming day are still open.",
    # --- jackpots -----------------------------------------------------------------------------
    "invalid_fund_command": "A value in this form is not acceptable.",
    "fund_discontinued": "This fund is discontinued.",
    "fund_empty": "The fund holds nothing to pay.",
    "not_bad_beat": "This fund is not a Bad Beat fund.",
    "hit_already_verified": "This Bad Beat is already verified.",
    "hit_rejected": "This Bad Beat was rejected.",
    "hit_already_paid": "This Bad Beat is already paid.",
    "hit_not_verified": "The poker shift supervisor has not verified this Bad Beat yet.",
    "payout_exceeds_fund": "The payout is more than the fund holds.",
    "invalid_payees": "Name each player with a share, by seat.",
    "identification_required": "Name and identify each player who is paid.",
    "invalid_place": "Choose the table or the cage.",
    "invalid_reason": "Write the reason (up to 2000 characters).",
    "adjustment_waiting": "An adjustment of the display already waits for its witness.",
    "no_adjustment_waiting": "No adjustment of the display waits for a witness.",
    "no_high_hand": "This table offers no High Hand jackpot.",
    "table_not_in_fund": "This table pays into a different fund.",
    "not_a_full_house": "The hand is not a full house or better.",
    "not_higher": "The hand is not higher than the period's best so far.",
    "invalid_cards": "Give the five to seven cards of the hand.",
    "invalid_dealer": "Name a dealer of this property.",
    "invalid_slip": "A detail of the High Hand slip is missing or not acceptable.",
    "invalid_payee": "Name the player who is paid.",
    "no_high_hand_recorded": "No High Hand was recorded in that period.",
    "period_closed": "That period is already closed.",
    "period_not_over": "That period has not ended yet.",
    "award_already_paid": "That award is already paid.",
    "award_uncollected": "That award was not collected in time and went by the posted "
                         "procedure.",
    "count_open_already": "A count of these boxes is already open.",
    "no_boxes": "This fund has no payout box.",
    "invalid_count": "Give the count as whole cents, zero or more.",
    "box_counted": "That box is already counted.",
    "boxes_not_counted": "Not every box is counted yet.",
    "aggregate_differs": "The total in hand does not match the boxes' counts.",
    "discontinuance_proposed": "Discontinuing this fund is already proposed.",
    "no_discontinuance": "No discontinuance of this fund is proposed.",
    "payouts_owed": "Payouts are still owed out of this fund; pay them first.",
    "invalid_transfer": "Choose another open fund of the same kind.",
    # --- personal data (casino.personal_data) -------------------------------------------
    "personal_data_not_found": "There are no personal details of that person here.",
    "personal_data_erased": "That person's details were erased; nothing more is recorded "
                            "about them.",
    "invalid_erasure_reason": "Say why the details are erased.",
    "invalid_personal_data": "Those personal details could not be recorded as given.",
    # --- the poker floor: lists and calls (issue 24) ------------------------------------
    "waitlist_not_found": "That list could not be found.",
    "waitlist_exists": "This game has a list already; add the players to it.",
    "list_not_poker": "Lists are kept for poker games only.",
    "invalid_open_table_at": "Give the number of waiting players that suggests opening a "
                             "table: 0 (never) to 99.",
    "invalid_player_name": "Give the player's name or initials (up to 120 characters).",
    "invalid_phone": "That is not a telephone number; check the digits (and the country "
                     "code, for a number from abroad).",
    "invalid_email": "That is not an e-mail address.",
    "already_listed": "This player is on this list already.",
    "entry_not_found": "That player is not on this list.",
    "entry_not_listed": "That player is no longer on the list (seated or taken off).",
    "entry_called": "That player has been called to a seat; cancel the call first.",
    "entry_already_called": "That player has been called to another seat already.",
    "list_empty": "Nobody on the list can be offered this seat.",
    "table_not_in_game": "That table plays another game than this list's.",
    "table_not_open": "That table is not open.",
    "seat_already_offered": "That seat is offered to a player already; wait for the answer "
                            "or cancel the call.",
    "call_not_found": "That call could not be found.",
    "call_already_answered": "That call was answered already (seated, timed out or "
                             "cancelled); nothing was changed.",
    "call_not_due": "The called player's time to come is not over yet.",
    "entry_own_table": "A table change is never offered a seat at the player's own "
                       "table.",
    "entry_player_left": "The player of that table change has left the seat it was asked "
                         "from; nobody else is moved in their place.",
    # --- the poker floor's public feed and kiosk (issue 24, item 6) -----------------------
    "rate_limited": "Too many requests from this address in a minute; wait a moment "
                    "and try again.",
    "kiosk_limit": "Too many requests to join a list from this phone or this place; "
                   "ask at the poker desk.",
    "kiosk_code_wrong": "That confirmation code is not the one we sent; check the "
                        "text message and try again.",
    "kiosk_code_expired": "That confirmation code has expired or was tried too many "
                          "times; start again to get a new one.",
    "kiosk_code_not_sent": "The text message with the code could not be sent; try "
                           "again in a moment or ask at the poker desk.",
}


def add(code: str, sentence: str) -> None:
    """Add ``code``'s sentence (from a declaration's ``refusals``); a second, different
    sentence for a code is refused."""
    known = _SENTENCES.get(code)
    if known is not None and known != sentence:
        raise ValueError(f"refusal code {code!r} has a sentence already: {known!r}")
    _SENTENCES[code] = sentence


def add_all(refusals: Mapping[str, str]) -> None:
    for code, sentence in refusals.items():
        add(code, sentence)


def refusal_sentence(code: str) -> str:
    """The sentence a person reads for ``code``; :data:`GENERAL` for an unknown one."""
    return _SENTENCES.get(code, GENERAL)


def catalogue() -> dict[str, str]:
    """Every code with its sentence (a copy)."""
    return dict(_SENTENCES)
