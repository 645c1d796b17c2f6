"""A claim-only engine behind the conformance protocol, version 2: it judges stone claims and
leaves every other question out.

Run it from the project folder: schotten-oracle conform -- python example_adapter.py
To test your own engine, replace judge_claims() with a call into it.
"""

import json
import sys

from engine import JOKERS, CombatMode, Player, Position, StoneState, claim_verdicts, parse_card

WHO = {"you": Player.A, "them": Player.B}


def judge_claims(case):
    """Each claimed stone's verdict, "granted" or "refused" (here, by the reference engine)."""
    jokers = iter(JOKERS)  # a case names both Jokers "joker"

    def cards(names):
        return [next(jokers) if name == "joker" else parse_card(name) for name in names]

    stones = {}
    for stone in case["position"]["stones"]:
        stones[stone["stone"]] = StoneState(
            (cards(stone.get("you", [])), cards(stone.get("them", []))),
            WHO.get(stone.get("completed_first")),
            frozenset(CombatMode(mode) for mode in stone.get("modes", [])),
            WHO.get(stone.get("claimed_by")),
        )
    position = Position.from_stones(
        stones,
        hand=cards(case["position"]["hand"]),
        discards=cards(case["position"].get("discards", [])),
        variant=case["variant"],
        jokers_played=[WHO[who] for who in case["position"].get("jokers_played", [])],
    )
    verdicts = claim_verdicts(position, [claim["stone"] for claim in case["claims"]])
    return {str(verdict.stone): verdict.verdict.value for verdict in verdicts}


def answer(request):
    """The answer line to one request line: claims judged, the other questions left out."""
    if request.get("protocol") != 2:
        return {"id": request["id"], "error": "this adapter speaks protocol 2"}
    case = request["case"]
    answer = {"protocol": 2, "id": request["id"], "answers": {}, "unsupported": []}
    for question in ("plays", "turn", "deal", "match"):
        if question in case:
            answer["unsupported"].append(question)
    if "claims" in case:
        try:
            answer["answers"]["claims"] = judge_claims(case)
        except ValueError as error:  # a board this engine cannot read: say so, and go on
            return {"id": request["id"], "error": str(error)}
    return answer


for line in sys.stdin:
    if line.strip():
        print(json.dumps(answer(json.loads(line))), flush=True)
