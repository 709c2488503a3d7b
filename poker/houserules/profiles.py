"""The shipped house-rule profiles: TDA 2024 (the base of all), 000 casino cash, 001 Wynental,
002 betting rules, 003 NLHE and 004 MunotPoker, each parameter with the rules it was read from
(see :mod:`poker.houserules` for the table of sources)."""

from __future__ import annotations

from poker.houserules.model import HouseRules, build_profile, param
from poker.houserules.tda import TDA_2024
from poker.rulebooks import Citation, rulebook

__all__ = ["BETTING_RULES", "CASINO_CASH", "MUNOTPOKER", "NLHE", "PROFILES", "TDA_2024", "WYNENTAL", "get_profile"]

_r = Citation.parse
"""``_r("004 #44")``: the citation written as its label (see :func:`poker.rulebooks.cite`)."""


# --------------------------------------------------------------------------- 000 casino cash
CASINO_CASH = build_profile(
    "casino-cash",
    "Casino cash games (000 Cash Game Reglement)",
    "casino-cash",
    TDA_2024,
    min_raise=param(
        "last_full_raise",
        _r("000 Aktionen 3"),
        note="'Das Minimum Raise ist immer gleich hoch wie die Erhöhung zuvor.'",
    ),
    split_limit_raise_cap=param(3, _r("000 Aktionen 3"), note="Split limit: three raises per betting round."),
    split_limit_cap_lifted_heads_up=param(
        True, _r("000 Aktionen 3"), note="Unlimited once only two players remain before the third raise."
    ),
    pot_limit_preflop_all_in=param(
        "actual",
        _r("000 Einsätze 4"),
        note="000 plays pot limit (Einsätze 2) but says nothing about a short all-in before the flop; Einsätze 4 "
        "counts the blind actually posted ('zählt das nachgebrachte Blind zum Pot'): pokerkit's reading, the real chips.",
    ),
    short_all_in_reopens=param(
        "cumulative",
        _r("000 Aktionen 5"),
        note="An all-in short of a full raise does not reopen the betting for players who already acted.",
    ),
    oversized_chip_facing_blinds=param(
        "call",
        _r("000 Aktionen 4"),
        _r("000 Aktionen 5"),
        note="A chip bigger than the previous bet (the big blind counts) is a raise only if declared.",
    ),
    oversized_chip_facing_bet=param("call", _r("000 Aktionen 4"), _r("000 Aktionen 5")),
    oversized_chip_opening_bet=param(
        "bet_chip_value",
        _r("000 Aktionen 4"),
        note="After the flop an undeclared bigger chip is a bet of its full value.",
    ),
    oversized_chip_raise_no_amount=param(
        "chip_value",
        _r("000 Aktionen 4"),
        note="Raise declared without amount: the maximum allowed (pot-limit) up to the chip's value.",
    ),
    multiple_chips=param("call_unless_one_chip_removable", _r("000 Aktionen 4")),
    silent_raise_allowed=param(
        True,
        _r("000 Aktionen 3"),
        note="Valid raises: in one motion, amount announced first, or 'raise' + call + raise in one motion.",
    ),
    short_raise_silent=param("fifty_percent", _r("000 Aktionen 5")),
    string_raise_counts_as=param("call", _r("000 Aktionen 3"), _r("000 Aktionen 2")),
    string_bet_counts_as=param(
        "first_motion",
        _r("000 Aktionen 2"),
        note="The amount must be put in one continuous motion without returning to the stack.",
    ),
    verbal_allows_several_motions=param(
        True, _r("000 Aktionen 3"), note="Aktionen 3 c): announce 'raise', put the call, then the raise in one motion."
    ),
    verbal_binding=param(True, _r("000 Allgemein 4"), _r("000 Aktionen 2")),
    out_of_turn_changed_by=param(
        ("bet", "raise"), _r("000 Aktionen 2"), note="'Check, Call oder Fold gelten nicht als Veränderung.'"
    ),
    undercall=param(
        "complete_or_fold",
        _r("000 Aktionen 2"),
        note="Short call (raise not noticed): complete it or forfeit the chips and the pot; no raise.",
    ),
    odd_chip=param(
        "left_of_button",
        _r("000 Allgemein 8"),
        _r("000 Aktionen 8"),
        note="Hold'em/Omaha: the winner nearest the button in betting order (the worse position, left of the button).",
    ),
    odd_chip_unit=param(
        "small_blind", _r("000 Allgemein 8"), note="A pot is split only down to the small blind (or ante)."
    ),
    bet_unit=param(
        "small_blind",
        _r("000 Allgemein 8"),
        _r("000 Einsätze 1"),
        note="Every bet must be divisible by the small blind (or ante); the excess is returned.",
    ),
    bet_unit_big_blind_stakes=param(
        ((2, 5),), _r("000 Allgemein 8"), note="At 2/5 every bet must be divisible by the big blind."
    ),
    ante_format=param(
        None, note="Cash flop games: no ante rule (Einsätze 2 only says the limit fixes blinds or ante)."
    ),
    button_rule=param(
        None, note="Cash game: blinds are always taken from every active stake (Einsätze 4); no dead-button rule."
    ),
    clock_seconds=param(None, note="No clock rule in 000."),
    clock_countdown_seconds=param(None),
    clock_expiry=param(None),
    substantial_action=param(
        "two_actions", _r("000 Allgemein 9"), note="Two active actions (check, bet, call, raise, re-raise or fold)."
    ),
    misdeal_until=param("two_actions", _r("000 Allgemein 9")),
    misdeal_after_flop=param(
        False, _r("000 Allgemein 9"), note="'Ein Spiel kann nach dem Flop nicht mehr für ungültig erklärt werden.'"
    ),
    misdeal_too_late=param(
        "faulty_hand_void",
        _r("000 Allgemein 9"),
        note="'Falls schon zwei oder mehr aktive Handlungen ... getätigt wurden ..., wird die fehlerhafte Hand für "
        "ungültig erklärt und das Spiel regulär fortgesetzt.'",
    ),
    absent_player=param(
        "hand_dead",
        _r("000 Allgemein 6"),
        _r("000 Einsätze 4"),
        note="An absent player gets cards, his blinds are taken by the croupier, his hand is invalid.",
    ),
    exposed_card_on_deal=param(
        "misdeal",
        _r("000 Allgemein 9"),
        note="c) the first or second card exposed is a misdeal (until two active actions).",
    ),
    penalty_kinds=param(
        ("warning", "sit_out_hands", "disqualification"),
        _r("000 Strafen 4"),
        _r("000 Strafen 2"),
        note="'mündliche Verwarnung, Zeitstrafe oder Spielausschluss'; the time penalty is counted in hands.",
    ),
    penalty_sit_out=param(
        "dealt_in_hand_killed",
        _r("000 Allgemein 6"),
        note="A player away from his seat is dealt in, his blinds are taken, his hand is invalid.",
    ),
    dealer_undo=param(
        "until_next_action",
        _r("000 Aktionen 2"),
        note="Binding once it could make another player act: a wrong entry is taken back before the next one acts.",
    ),
)

# --------------------------------------------------------------------------- 001 Wynental
WYNENTAL = build_profile(
    "wynental",
    "Kartenfreunde Wynental tournaments (001)",
    "wynental",
    TDA_2024,
    min_raise=param(
        "last_full_raise",
        _r("001 6.17"),
        _r("001 Spielablauf"),
        note="001 says only 'mindestens um einen Big Blind'; applied as the standard last full raise, which is never below one big blind.",
    ),
    split_limit_raise_cap=param(
        None, _r("001 6.16"), note="No-limit: no cap; limit tournaments per the tournament structure."
    ),
    short_all_in_reopens=param(
        "cumulative", _r("001 6.17"), note="'Ein unvollständiger All-in Satz gilt nicht als voller Einsatz.'"
    ),
    pot_limit_preflop_all_in=param(
        "actual",
        _r("001 6.16"),
        note="001 knows no-limit and limit tournaments only (6.16) and is silent on pot limit: pokerkit's reading.",
    ),
    oversized_chip_facing_blinds=param("call", _r("001 6.20")),
    oversized_chip_facing_bet=param("call", _r("001 6.20")),
    oversized_chip_opening_bet=param(
        "bet_chip_value", _r("001 6.20"), note="After the flop an opening oversized chip counts at its value."
    ),
    oversized_chip_raise_no_amount=param(
        "chip_value", _r("001 6.20"), note="'der höchstmögliche Betrag, maximal bis zu der Wertigkeit des Chips'."
    ),
    silent_raise_allowed=param(
        False,
        _r("001 6.18"),
        note="A raise must be announced before the chips touch the table, otherwise it is a call.",
    ),
    string_raise_counts_as=param("call", _r("001 6.28"), _r("001 6.18")),
    string_bet_counts_as=param("first_motion", _r("001 6.28")),
    verbal_binding=param(True, _r("001 6.19")),
    out_of_turn_changed_by=param(("bet", "raise"), _r("001 6.19")),
    odd_chip=param("left_of_button", _r("001 Odd Chips")),
    ante_format=param(
        "every_player",
        _r("001 Ante"),
        note="An ante paid by every player regardless of position, when the structure provides one.",
    ),
    button_rule=param(
        "button_stays_no_small_blind",
        _r("001 6.10"),
        note="When the big blind busts, the button stays put and there is no small blind that round.",
    ),
    heads_up_button=param("small_blind_on_button", _r("001 Heads up")),
    clock_seconds=param(30, _r("001 6.13")),
    clock_countdown_seconds=param(
        None, _r("001 6.13"), note="The dealer warns shortly before the 30 seconds run out; no fixed countdown."
    ),
    clock_expiry=param("dead", _r("001 6.13")),
    showdown_no_bet=param("left_of_button", _r("001 6.21")),
    exposed_card_on_deal=param(
        "replace",
        _r("001 6.25"),
        note="The exposed card goes face up to the middle, the player gets a new card, the exposed card becomes the burn card.",
    ),
    premature_board_card=param(
        "becomes_burn_card",
        _r("001 6.25"),
        note="'Deckt der Dealer im späteren Spielverlauf aus Versehen eine Karte auf ... zur burning card.'",
    ),
    penalty_kinds=param(
        ("sit_out_orbits", "disqualification"),
        _r("001 6.37"),
        note="'von einer Button-Runde bis zu einer Disqualifikation'.",
    ),
    penalty_sit_out=param(
        "dealt_in_hand_killed",
        _r("001 6.37"),
        _r("001 6.14"),
        note="The player leaves the table for the penalty; a player not at the table when the cards are dealt has a dead hand.",
    ),
    absent_player=param(
        "hand_dead",
        _r("001 Sitzverteilung"),
        _r("001 6.14"),
        note="'die Blinds werden automatisch bezahlt und die Karten gefoldet'.",
    ),
)

# --------------------------------------------------------------------------- 002 betting rules
BETTING_RULES = build_profile(
    "betting-rules",
    "Betting rules page (002 Einsätze und Erhöhungen)",
    "betting-rules",
    TDA_2024,
    min_raise=param(
        "double_previous",
        _r("002 #4"),
        note="BB 100, bet 100, raise to 200: the next raise must be to at least 400 (read as twice the current bet, as the engine does).",
    ),
    min_bet=param("big_blind", _r("002 #3")),
    split_limit_raise_cap=param(None, _r("002 #2")),
    pot_limit_preflop_all_in=param(
        "actual",
        _r("002 #2"),
        note="002 has no pot-limit rule ('Das Erhöhen ist unbegrenzt erlaubt'): pokerkit's reading.",
    ),
    oversized_chip_facing_blinds=param("call", _r("002 #11")),
    oversized_chip_facing_bet=param("call", _r("002 #11")),
    multiple_chips=param("call_unless_one_chip_removable", _r("002 #12")),
    short_raise_silent=param(
        "bet_plus_half",
        _r("002 #13"),
        note="The full bet plus half of it or more counts as a raise, which must be completed; not with a single bigger chip.",
    ),
    short_raise_declared=param(
        "fifty_percent_or_withdraw",
        _r("002 #6"),
        note="Under 50 % of the minimum the raise may be withdrawn; 50 % or more must be completed, even all-in.",
    ),
    string_raise_counts_as=param("call", _r("002 #13")),
    verbal_binding=param(True, _r("002 #5")),
    short_bet=param("complete_to_minimum", _r("002 #14")),
    out_of_turn_changed_by=param(
        ("bet", "call", "raise"), _r("002 #8"), note="Binding only if no intervening bet, call or raise."
    ),
    out_of_turn_check_restricts=param(
        True, _r("002 #8"), note="Out-of-turn check: no bet or raise later; out-of-turn call can never become a raise."
    ),
    undercall=param(
        "complete",
        _r("002 #10"),
        _r("002 #14"),
        note="Short bets and calls are completed; a player who missed a raise may withdraw if nobody acted after him and he put in under 50 %.",
    ),
    skipped_player_late=param(
        "must_object_immediately", _r("002 #9"), note="A skipped player must alert the dealer to keep his right to act."
    ),
    hidden_chips_at_all_in=param(
        "paid_on_declared_only",
        _r("002 #15"),
        _r("002 #16"),
        _r("002 #17"),
        note="The hidden chips are part of the all-in, but the all-in player may not profit from them: if he wins he "
        "is paid only on the declared amount; if he loses, the opponent wins all he covers.",
    ),
    dealer_undo=param(
        "until_next_action",
        _r("002 #5"),
        _r("002 #10"),
        note="An action may be reconsidered only if nobody after him has acted (002 #10).",
    ),
)

# --------------------------------------------------------------------------- 003 NLHE
NLHE = build_profile(
    "nlhe",
    "NLHE rules with dealer procedures (003)",
    "nlhe",
    TDA_2024,
    min_raise=param(
        "last_full_raise",
        _r("003 Einsätze und Annoncen"),
        _r("003 Pre-Flop"),
        note="'Eine Erhöhung muss immer mindestens genau so hoch sein wie die vorangegangene Erhöhung.'",
    ),
    min_bet=param("big_blind", _r("003 Flop"), _r("003 Die Setzrunden")),
    short_all_in_reopens=param("cumulative", _r("003 All-In")),
    pot_limit_preflop_all_in=param(
        "actual",
        _r("003 Grundregeln"),
        note="003 covers no-limit hold'em only and is silent on pot limit: pokerkit's reading.",
    ),
    short_all_in_caller_may_reraise=param(
        False,
        _r("003 All-In"),
        note="A player who only called a short all-in and then faces a raise may only call or fold.",
    ),
    oversized_chip_facing_blinds=param(
        "call", _r("003 Einsätze und Annoncen"), note="A silent raise needs at least two chips in one motion."
    ),
    oversized_chip_facing_bet=param("call", _r("003 Einsätze und Annoncen")),
    silent_raise_allowed=param(True, _r("003 Einsätze und Annoncen")),
    string_raise_counts_as=param("call", _r("003 Einsätze und Annoncen")),
    string_bet_counts_as=param(
        "minimum_bet",
        _r("003 Einsätze und Annoncen"),
        note="Not in one motion: only the minimum bet (big blind) or a call.",
    ),
    verbal_allows_several_motions=param(True, _r("003 Einsätze und Annoncen")),
    verbal_binding=param(
        True, _r("003 Ausserordentliche und ordentliche Handlungen der Spieler"), _r("003 Einsätze und Annoncen")
    ),
    out_of_turn_changed_by=param(("bet", "raise"), _r("003 Ausserordentliche und ordentliche Handlungen der Spieler")),
    undercall=param(
        "complete_or_fold",
        _r("003 Einsätze und Annoncen"),
        note="A call that is too small must be completed to stay in the hand.",
    ),
    odd_chip=param("left_of_button", _r("003 Pot Teilung / Odd-Chips")),
    heads_up_button=param("small_blind_on_button", _r("003 Heads-Up")),
    showdown_no_bet=param(
        "left_of_button",
        _r("003 Showdown Reihenfolge"),
        note="All checked: the first player who checked shows first (the first active player left of the button).",
    ),
    exposed_card_on_deal=param(
        "replace_one_misdeal_two",
        _r("003 Miss-Deal"),
        note="One exposed card stays with the player until the deal is complete, is replaced and becomes the burn card; more than one is a misdeal.",
    ),
    premature_board_card=param("reshuffle", _r("003 Miss-Deal")),
    four_card_flop=param(
        "redress",
        _r("003 Burn Cards"),
        note="Wrongly dealt cards go back on the deck in their order (redress); if that is no longer possible, the burn is adjusted.",
    ),
    skipped_player_late=param(
        "must_object_immediately", _r("003 Ausserordentliche und ordentliche Handlungen der Spieler")
    ),
    penalty_sit_out=param(
        "dealt_in_hand_killed",
        _r("003 Ausserordentliche und ordentliche Handlungen der Spieler"),
        note="An absent player's blinds are posted by the dealer; absent at the second hole card = folded.",
    ),
    absent_player=param(
        "hand_dead_unless_all_in",
        _r("003 Ausserordentliche und ordentliche Handlungen der Spieler"),
        note="The dealer posts his blinds at the minimum; absent at the second hole card = folded, blinds too; a "
        "player set 'Auto All-In' is not folded and can win the main pot.",
    ),
)

# --------------------------------------------------------------------------- 004 MunotPoker
MUNOTPOKER = build_profile(
    "munotpoker",
    "MunotPoker tournaments (004)",
    "munotpoker",
    TDA_2024,
    min_raise=param("last_full_raise", _r("004 #43")),
    split_limit_raise_cap=param(None, _r("004 #48")),
    short_all_in_reopens=param("cumulative", _r("004 #47")),
    short_all_in_caller_may_reraise=param(True, _r("004 #47")),
    pot_limit_preflop_all_in=param(
        "counted_full",
        _r("004 #54"),
        note="'Blind 1'000/1'000, Spieler geht mit 800 all in, Pot-Raise ist dennoch 5'000 und nicht 4'400'; "
        "from the flop on the real pot.",
    ),
    oversized_chip_facing_blinds=param(
        "raise_to_chip_value",
        _r("004 #44"),
        note="No bet yet (only blinds) and no declaration: raise to the chip's full value.",
    ),
    oversized_chip_facing_bet=param("call", _r("004 #44"), note="Even if it is the player's last chip."),
    oversized_chip_raise_no_amount=param("chip_value", _r("004 #44")),
    multiple_chips=param(
        "call_unless_one_chip_removable",
        _r("004 #45"),
        note="If one chip was not needed for the call, the 50 % rule of #43 decides.",
    ),
    silent_raise_allowed=param(True, _r("004 #42")),
    short_raise_silent=param("fifty_percent", _r("004 #43"), _r("004 #45")),
    short_raise_declared=param("minimum_raise", _r("004 #43")),
    string_raise_counts_as=param("call", _r("004 #56"), _r("004 #42")),
    string_bet_counts_as=param("first_motion", _r("004 #56")),
    call_without_bet_is=param("check", _r("004 #55")),
    raise_without_bet_is=param("bet", _r("004 #55")),
    check_facing_bet_allows=param("call_or_fold", _r("004 #55")),
    pot_declared_in_no_limit=param("minimum", _r("004 #54")),
    unclear_amount=param("highest_reasonable_up_to_pot", _r("004 #57")),
    declared_raise_amount=param("total", _r("004 #43"), note="'Raise 5'000' is a raise to 5,000 in total."),
    short_bet=param("complete_to_minimum", _r("004 #52")),
    verbal_binding=param(True, _r("004 #51"), _r("004 #50")),
    verbal_vs_chips=param("first_binds", _r("004 #40")),
    out_of_turn_changed_by=param(("bet", "raise"), _r("004 #53")),
    undercall=param("call_if_heads_up_or_opening_bet", _r("004 #51")),
    odd_chip=param("left_of_button", _r("004 #20"), note="The 'worse' position."),
    odd_chip_unit=param("smallest_chip", _r("004 #20")),
    ante_format=param(
        "big_blind_ante",
        _r("004 #81"),
        note="Small or big blind ante posted by the big blind; not halved short-handed.",
    ),
    button_rule=param("no_dead_button", _r("004 #32")),
    heads_up_button=param("small_blind_on_button", _r("004 #34")),
    heads_up_no_double_big_blind=param(True, _r("004 #34")),
    clock_seconds=param(30, _r("004 #29"), note="25 seconds plus a 5-second countdown."),
    clock_countdown_seconds=param(5, _r("004 #29")),
    clock_expiry=param("dead_if_facing_bet_else_check", _r("004 #29")),
    showdown_no_bet=param("left_of_button", _r("004 #17"), note="No bet on the river: position decides."),
    substantial_action=param("two_actions_one_with_chips_or_three", _r("004 #36")),
    misdeal_until=param("substantial_action", _r("004 #35"), _r("004 #36")),
    misdeal_too_late=param(
        "play_on",
        _r("004 #35"),
        note="'Eine Hand kann nur so lange zum Missdeal erklärt werden, wenn noch keine wesentlichen Aktionen "
        "stattgefunden haben.'",
    ),
    absent_player=param(
        "hand_dead",
        _r("004 #30"),
        _r("004 #71"),
        note="At the table before the last card of the initial deal, else the hand is dead; blinds and antes are "
        "always posted.",
    ),
    hidden_chips_at_all_in=param(
        "floor_decides_forfeited",
        _r("004 #62"),
        _r("004 #49"),
        note="The floor decides whether the chip counts; if not, it is not paid out to a winning all-in player, a "
        "losing one is out and the floor may give it to the winner.",
    ),
    exposed_card_on_deal=param(
        "replace_one_misdeal_two",
        _r("004 #35"),
        note="'die 2. Karte unabsichtlich offen ... gedealt' is a misdeal; a single exposed card is replaced.",
    ),
    premature_board_card=param("reshuffle", _r("004 #39")),
    four_card_flop=param("random_burn", _r("004 #39")),
    skipped_player_late=param(
        "floor_dead_or_passive",
        _r("004 #53"),
        note="The floor declares the skipped hand dead or lets him act passively (call, check or fold only).",
    ),
    penalty_kinds=param(("warning", "sit_out_hands", "sit_out_orbits", "disqualification"), _r("004 #71")),
    penalty_sit_out=param(
        "dealt_in_hand_killed",
        _r("004 #71"),
        note="Cards are dealt to the seat and collected before the betting round; blinds and antes are always posted.",
    ),
    dealer_undo=param(
        "until_next_action",
        _r("004 #49"),
        _r("004 #52"),
        note="A wrong bet noticed within the betting round is corrected (#52); a called bet is accepted (#49).",
    ),
)

#: slug -> profile
PROFILES: dict[str, HouseRules] = {
    p.slug: p for p in (TDA_2024, CASINO_CASH, WYNENTAL, BETTING_RULES, NLHE, MUNOTPOKER)
}


def get_profile(slug: str) -> HouseRules:
    """Return the profile called ``slug``.

    Accepts the profile slug (``"munotpoker"``), the seed's number (``"004"``)
    or file name (``"004_703829b529d7b378.txt"``), and ``"tda"`` for
    ``"tda-2024"``. Raises KeyError (message lists the known slugs) otherwise.
    """
    key = (slug or "").strip().lower()
    if key not in PROFILES:
        try:
            key = rulebook(key).slug
        except KeyError:
            pass
    try:
        return PROFILES[key]
    except KeyError:
        raise KeyError(f"unknown profile {slug!r}; known: {', '.join(PROFILES)}") from None
