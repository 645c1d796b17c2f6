"""The typed model of a case, made by the loader and used by the plugin, the renderer and the CLI.

No YAML dict travels past the loader: everything downstream sees these objects and the engine's
own :class:`engine.Position`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import Card, Deck, Game, GameState, Phase, Player, Position, Verdict
from oracle.casefile.source import shown_path


@dataclass(frozen=True)
class Claim:
    """One stone claimed in the case, with the verdict the engine must give (None in a draft)
    and, if pinned, its reason in words."""

    stone: int
    expect: Verdict | None
    line: int
    because: str | None = None


@dataclass(frozen=True)
class Table:
    """The rest of a game around a case's position: their hand, the decks, the Tactic count.

    With it, a case can ask about moves and turns, not only claims. The decks are complete (the
    loader puts every card the case does not place beneath the ones it lists), top card first.
    """

    their_hand: tuple[Card, ...]
    clan_deck: tuple[Card, ...]
    tactic_deck: tuple[Card, ...]
    tactics_played: tuple[int, int]
    expert: bool
    step: Phase
    passed: bool | None = None
    """Past the play step: True when you passed instead of playing (None: you played)."""
    could_claim: bool | None = None
    """Past this turn's claim step: whether a stone was provable there (None: derive it)."""
    idle_turns: int | None = None
    """Idle turns in a row before this one (None: derive it, which needs a board that shows it)."""

    def game_state(self, position: Position) -> GameState:
        """The engine's state at the case's moment: your turn, at :attr:`step`."""
        game = Game(position.variant, self.expert, Player.A)
        return GameState.from_table(
            game,
            position,
            their_hand=self.their_hand,
            clan_deck=self.clan_deck,
            tactic_deck=self.tactic_deck,
            tactics_played=self.tactics_played,
            phase=self.step,
            played_this_turn=None if self.passed is None else not self.passed,
            could_claim_this_turn=self.could_claim,
            idle_turns=self.idle_turns,
        )

    def deck(self, deck: Deck) -> tuple[Card, ...]:
        """One of the two decks, top card first."""
        return self.clan_deck if deck is Deck.CLAN else self.tactic_deck


@dataclass(frozen=True)
class PlayQuestion:
    """Is this move legal at the case's moment, or once the moves ``after`` are made from it?
    ``rule`` pins the rule a refusal must name and ``because`` its words; an ``unreadable`` play
    is text the engine must refuse to read as a move, ``because`` then pinning why."""

    move: str
    legal: bool | None
    rule: str | None
    line: int
    because: str | None = None
    after: tuple[str, ...] = ()
    unreadable: bool = False
    """The text must not read as a move at all (``legal`` is then False)."""

    @property
    def label(self) -> str:
        """The question in words: ``move 'return red 5' after 'recruiter', 'draw clan'``."""
        first = f" after {', '.join(repr(move) for move in self.after)}" if self.after else ""
        return f"move {self.move!r}{first}"


@dataclass(frozen=True)
class TurnExpectation:
    """What must hold once a turn's moves are made; None means the case does not say."""

    log: tuple[str, ...] | None = None
    winner: str | None = None
    ending: str | None = None
    """How the game ended, in the words of :class:`engine.Termination`, or ``none``."""
    held: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    hand: tuple[Card, ...] | None = None
    discards: tuple[Card, ...] | None = None
    next_player: Player | None = None
    refused: str | None = None
    """The engine's reason for refusing the turn's last move, word for word (spaces and line
    breaks aside): a turn that pins it asserts no other fact, since the turn stops there."""


@dataclass(frozen=True)
class TurnQuestion:
    """Make these moves in order from the case's moment, then compare with the expectation."""

    moves: tuple[tuple[str, int], ...]
    expect: TurnExpectation
    line: int
    expect_lines: dict[str, int]


@dataclass(frozen=True)
class DealQuestion:
    """Shuffle and deal a new game with this seed: who moves first and how many cards lie where."""

    seed: int
    first: Player
    hand_sizes: tuple[int, int] | None
    deck_sizes: tuple[int, int] | None
    line: int
    hand: tuple[Card, ...] | None = None
    """Your dealt hand, where the case pins it: this engine's shuffle, not a rule of the game."""


@dataclass(frozen=True)
class RoundPlayed:
    """One round of a match as the case gives it: who started, who won, the stones each held."""

    starter: Player
    winner: Player | None
    stones: tuple[int, int]
    line: int = 0
    """The round's own line in the case file (0: not read from one)."""


@dataclass(frozen=True)
class MatchQuestion:
    """Score a match of these rounds: the points, who starts next, who wins."""

    rounds: tuple[RoundPlayed, ...]
    points: tuple[int, int] | None
    next_starter: Player | None
    winner: str | None
    line: int


@dataclass(frozen=True)
class WrittenStone:
    """One stone of a board as its case file writes it: cards parsed, nothing judged."""

    number: int
    you: tuple[Card, ...]
    them: tuple[Card, ...]
    modes: tuple[str, ...] = ()
    completed_first: Player | None = None
    claimed_by: Player | None = None


@dataclass(frozen=True)
class WrittenBoard:
    """A board exactly as a case file writes it, for showing a board the engine refuses.

    The engine cannot build a :class:`engine.Position` of such a board, so this is what a reader
    is shown instead: each stone's cards as written, the hands, the discards and the facts of
    the table, in the file's order. Nothing here has been checked beyond the card names.
    """

    variant: str
    stones: tuple[WrittenStone, ...]
    hand: tuple[Card, ...] = ()
    discards: tuple[Card, ...] = ()
    jokers_played: tuple[Player, ...] = ()
    their_hand: tuple[Card, ...] | None = None
    """Their hand, when the case has a table that gives it."""
    table: tuple[tuple[str, str], ...] = ()
    """The other facts of the table as written, each a label and its value in words."""


@dataclass(frozen=True)
class ImpossibleBoard:
    """The question of a case whose board cannot happen: the engine must refuse to build it.

    ``expected`` is the refusal the case pins, the engine's own message (None in a draft that
    has not pinned it yet); ``refusal`` is the engine's message when the loader built the board
    (None when the engine accepted it), and ``refusal_line`` the line the loader located it at.
    """

    expected: str | None
    line: int
    refusal: str | None
    refusal_line: int | None
    board: WrittenBoard


@dataclass(frozen=True)
class Twin:
    """``twin_of:``: the published case a case answers alike on purpose, and what it asks with
    fewer features, at the line of the key."""

    case_id: str
    because: str
    line: int


@dataclass(frozen=True)
class Case:
    """One case file: a position, the stones claimed on it, the expected verdicts, the prose."""

    id: str
    path: Path
    line: int
    situation: str
    why: str
    draft: bool
    position: Position
    asked: Mapping[str, Any] = field(default_factory=dict, hash=False)
    """The questions the case asks, by their kind's key (:mod:`oracle.casefile.questions`), in
    the order of the kinds: ``claims`` a tuple of :class:`Claim`, ``turn`` a
    :class:`TurnQuestion`... The properties below give the kinds this project knows typed."""
    rules: tuple[str, ...] = ()
    table: Table | None = None
    guards_against: tuple[str, ...] = ()
    twin_of: Twin | None = None
    """The published case this one answers alike on purpose, and why it stays (``twin_of:``)."""
    played_first: tuple[tuple[int, Player], ...] = ()
    """Who laid the first card at a stone, where the case says so."""
    reviewed: str | None = None
    """The fingerprint of the answers (and the texts of the rules it pins) the prose was last
    read for (``reviewed:``), if any."""
    answers_fingerprint: str = ""
    """The fingerprint of the answers the case pins now and of the texts of the rules it pins,
    as the index it was read with words them: :func:`answers_fingerprint`."""
    text: str = field(default="", repr=False, compare=False)
    """The text the case was read from (empty for a case not read from text): the one read
    that was verified is the one a case page shows, whatever the file holds by then."""

    @property
    def claims(self) -> tuple[Claim, ...]:
        """The stones claimed in one step, in the order the case lists them."""
        claims: tuple[Claim, ...] = self.asked.get("claims", ())
        return claims

    @property
    def plays(self) -> tuple[PlayQuestion, ...]:
        """The moves judged each on its own."""
        plays: tuple[PlayQuestion, ...] = self.asked.get("plays", ())
        return plays

    @property
    def turn(self) -> TurnQuestion | None:
        """The rest of the turn to play, and what it must leave."""
        turn: TurnQuestion | None = self.asked.get("turn")
        return turn

    @property
    def deal(self) -> DealQuestion | None:
        """A new game to deal, and what it must give."""
        deal: DealQuestion | None = self.asked.get("deal")
        return deal

    @property
    def match(self) -> MatchQuestion | None:
        """A match's rounds to score, and what they must give."""
        match: MatchQuestion | None = self.asked.get("match")
        return match

    @property
    def impossible(self) -> ImpossibleBoard | None:
        """For a board the engine must refuse: the refusal pinned and the one found.
        ``position`` (and ``table``) are then the empty board of the variant, or, when the
        engine wrongly accepts the board, the one it built: what a refused board describes
        cannot be built, so readers are shown :attr:`ImpossibleBoard.board` instead, and every
        consumer of the catalogue handles such a case explicitly or leaves it out on purpose."""
        impossible: ImpossibleBoard | None = self.asked.get("impossible")
        return impossible

    @property
    def prose_reviewed(self) -> bool:
        """Whether the situation and why were last read for the answers the case pins now and
        the rules' texts as they stand (a case without ``reviewed:`` never was)."""
        return self.reviewed == self.answers_fingerprint

    @property
    def asks_about_claims_only(self) -> bool:
        """Whether the case only claims stones (the verdict tables of the seed page)."""
        return all(key == "claims" for key in self.asked)

    def game_state(self) -> GameState:
        """The engine's state at the case's moment (its table, or an empty one around it)."""
        table = self.table or Table((), (), (), (0, 0), False, Phase.PLAY)
        return table.game_state(self.position)

    @property
    def variant(self) -> str:
        """The version of the game the case is set in: ``base`` or ``tactics`` (for a board the
        engine refuses, the one its file names)."""
        return self.impossible.board.variant if self.impossible else self.position.variant.name

    @property
    def topic(self) -> str:
        """The folder the case file sits in (``claims`` for ``cases/claims/...``): its table."""
        return self.path.parent.name

    @property
    def location(self) -> str:
        """``path:line`` of the case, for messages."""
        return f"{self.path}:{self.line}"

    def named_at(self, root: Path | None) -> str:
        """How a problem line names the case: ``cases/t/a.yaml:1: case 'a'`` (the path shown
        from ``root``)."""
        return f"{shown_path(self.path, root)}:{self.line}: case {self.id!r}"

    @property
    def claimed_stones(self) -> tuple[int, ...]:
        """The stones claimed, in the order the case lists them."""
        return tuple(claim.stone for claim in self.claims)


@dataclass(frozen=True)
class RuleChange:
    """One step in a rule's or ruling's history: when, added or changed, why, on what source,
    and the cases whose answers moved with it."""

    date: str
    change: str
    why: str
    source: str
    moved: tuple[str, ...] = ()
    moved_lines: tuple[int, ...] = field(default=(), compare=False)
    """The line of each id of ``moved`` in the rules index."""
    answers: tuple[tuple[str, str, str, str], ...] = ()
    """Each answer that moved, where ``schotten-oracle history`` recorded it: the case id, the
    question, the answer before and after (as text)."""


@dataclass(frozen=True)
class RuleEntry:
    """One rule or ruling of the rules index."""

    id: str
    kind: str
    section: str
    title: str
    text: str
    reason: str | None
    line: int
    applies: str = "both"
    """Where it holds: ``both`` versions of the game, or ``base`` or ``tactics`` only."""
    unpinned_in: tuple[str, str] | None = None
    """For an entry of both versions that no case of one of them can pin: that version and why."""
    history: tuple[RuleChange, ...] = ()
    """When it was added or changed and why, oldest first."""

    def variants(self) -> tuple[str, ...]:
        """The versions of the game it holds in."""
        return ("base", "tactics") if self.applies == "both" else (self.applies,)

    def must_be_pinned_in(self) -> tuple[str, ...]:
        """The versions in which a published case must pin it."""
        unpinned = self.unpinned_in[0] if self.unpinned_in else None
        return tuple(variant for variant in self.variants() if variant != unpinned)

    @property
    def is_ruling(self) -> bool:
        """Whether this is one of our rulings (a point the rulebook leaves open)."""
        return self.kind == "ruling"


@dataclass(frozen=True)
class RulesIndex:
    """Every rule and ruling the engine implements, in the order of the rules."""

    path: Path
    entries: tuple[RuleEntry, ...]

    def ids(self) -> frozenset[str]:
        """The ids cases may pin."""
        return frozenset(entry.id for entry in self.entries)

    def statements(self) -> frozenset[tuple[str, str, str]]:
        """Each entry's id, title and text: what a case's prose or a page is read against."""
        return frozenset((entry.id, entry.title, entry.text) for entry in self.entries)

    def entry(self, rule_id: str) -> RuleEntry | None:
        """The entry of ``rule_id``, if the index has one."""
        return next((entry for entry in self.entries if entry.id == rule_id), None)

    def rulings(self) -> tuple[RuleEntry, ...]:
        """The rulings, in order."""
        return tuple(entry for entry in self.entries if entry.is_ruling)

    def sections(self) -> tuple[str, ...]:
        """The section titles, in order of first appearance."""
        return tuple(dict.fromkeys(entry.section for entry in self.entries))
