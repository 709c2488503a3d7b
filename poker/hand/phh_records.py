"""What real PHH records write that needs reading beyond the action table of
:mod:`.phh`: posts (a negative ``blinds_or_straddles`` value), shows whose
cards are not recorded (``pN sm ????``), and what recorded ``winnings``
that differ from a replay lack. Used by :mod:`.phh` (and the
``replay_phh`` command through it)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import UNKNOWN, parse_cards
from .errors import EngineError
from .records import Show
from .state import HandState

__all__ = ["forced_bets", "show_unknown", "winnings_mismatch"]


def forced_bets(
    blinds_or_straddles: Sequence[int],
    antes: Sequence[int],
    min_bet: int,
    seats: Sequence[int],
    ante_trimming: bool = False,
    posts: Iterable[Sequence[int]] = (),
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """``(blinds_or_straddles, antes, posts)`` of the engine spec of a PHH hand.

    Args:
        blinds_or_straddles, antes: per position, chips, as the file writes them.
        min_bet: chips (the big blind when position 2 posts none).
        seats: table seat per position.
        ante_trimming: the file's ``ante_trimming_status``.
        posts: live posts already known ``((seat, chips), ...)``: the
            ``_posts`` user field of our export.

    A negative ``blinds_or_straddles`` value is a post (pokerkit's "post
    bet": chips a player who has just sat down pays to play at once, without
    waiting for the big blind; 000 Einsätze 4 "muss er das Big Blind
    bringen"). Up to the big blind it is a live post (``HandSpec.posts``: in
    his bet, it neither moves the action nor raises the amount to call, and
    he keeps his option); what is posted above the big blind (small and big
    blind posted together) is dead money in the pot, taken like an ante of
    that player. pokerkit reads every chip of a post as live, which differs
    only for a post above the big blind.

    Raises:
        EngineError("bad_spec") for a post by a blind (``p1``, ``p2``) or a
        dead part with ``ante_trimming`` (trimming would hand the dead chips
        back).
    """
    known = tuple(tuple(p) for p in posts) if posts else ()
    if min(blinds_or_straddles, default=0) >= 0:
        return tuple(blinds_or_straddles), tuple(antes), known
    blinds = list(blinds_or_straddles)
    dead_antes = list(antes)
    found = list(known)
    big_blind = (blinds[1] if len(blinds) > 1 and blinds[1] > 0 else 0) or min_bet
    for i, value in enumerate(blinds_or_straddles):
        if value >= 0:
            continue
        if i < 2:
            raise EngineError(
                "bad_spec",
                f"blinds_or_straddles: p{i + 1} posts {-value} (a negative value is a post), "
                "but a post is for a player who is not in the blinds.",
            )
        live = min(-value, big_blind)
        dead = -value - live
        if dead and ante_trimming:
            raise EngineError(
                "bad_spec",
                f"blinds_or_straddles: p{i + 1} posts {-value}, {dead} of it dead above the big blind "
                f"{big_blind}; dead chips cannot be posted with ante_trimming_status = true.",
            )
        blinds[i] = 0
        dead_antes[i] += dead
        found.append((seats[i], live))
    return tuple(blinds), tuple(dead_antes), tuple(found)


def show_unknown(state: HandState, seat: int, cards: str) -> Show | None:
    """The engine action of ``pN sm ????`` (or ``Ah??``): a show whose cards
    are not (all) recorded, at table ``seat``.

    PHH: the player neither mucks nor shows those cards (online histories
    write it for every all-in player on every street of a run-out); pokerkit
    replays it. Unknown cards are filled from the cards entered for the
    player: when that makes them all known and some were written, it is a
    show of those cards (:class:`~.records.Show`); else the player stays in
    the hand with the cards he has (unknown stay unknown, as after
    ``d dh pN ????``) and nothing is applied (None): the engine's showdown
    then decides from the known cards, or the recorded winnings award the pot.

    Raises:
        EngineError as a show would (``wrong_phase`` before the betting is
        over, ``folded``, a mucked hand: the check of a show, nothing applied)
        or ``bad_cards`` for a wrong number of cards or a card that is not one.
    """
    shown = parse_cards(cards)
    pos = state.spec.position_of(seat)
    entered = state.hole_cards[pos]
    if entered is not None and len(entered) != len(shown):
        raise EngineError("bad_cards", f"{len(entered)} hole cards expected, got {len(shown)} ({cards!r}).")
    merged = shown if entered is None else tuple(e if c == UNKNOWN else c for c, e in zip(shown, entered))
    if UNKNOWN not in merged and any(c != UNKNOWN for c in shown):
        return Show(seat, "".join(merged))
    try:
        state.verify(Show(seat))  # the checks of a show (phase, folded, mucked), nothing applied
    except EngineError as exc:
        if exc.code != "bad_cards":  # "the cards shown must be entered": they are unknown, as recorded
            raise
    return None


def winnings_mismatch(recorded: Iterable[int], won: Iterable[int]) -> str:
    """The error for recorded ``winnings`` (chips per position) that differ
    from what the replay awards (``won``, ``phh_amounts.collected``), saying
    what the record lacks: winnings that are all zero do not say who won
    (the result is missing from the record); fewer chips in all than the
    pots held suggest a rake (the engine takes none)."""
    recorded, won = list(recorded), list(won)
    if not any(recorded):
        hint = " (the recorded winnings are all zero: the record does not say who won, so it cannot be checked)"
    elif (rake := sum(won) - sum(recorded)) > 0:
        hint = f" ({rake} chips less in all: a rake? the engine takes none)"
    else:
        hint = ""
    return f"mismatch: winnings {recorded} but the replay awards {won}{hint}"
