"""Every game Parlour knows, one module each, registered by id."""

from __future__ import annotations

from companion.errors import Refused
from companion.games.cats_and_dogs import CatsAndDogs
from companion.games.cats_and_mice import CatsAndMice
from companion.games.domino_rex import DominoRex
from companion.games.fox_and_geese import FoxAndGeese
from companion.games.free_play import FreePlay
from companion.games.gantlope import Gantlope
from companion.games.india import India
from companion.games.kat_en_muis import KatEnMuis
from companion.games.lifes_mishaps import LifesMishaps
from companion.games.lost_diamond import LostDiamond
from companion.rulebook import Rulebook

GAMES: dict[str, Rulebook] = {r.id: r for r in (
    KatEnMuis(), LifesMishaps(), CatsAndDogs(), DominoRex(), CatsAndMice(), Gantlope(),
    LostDiamond(), India(), FoxAndGeese(), FreePlay())}


def get_rulebook(game_id: str) -> Rulebook:
    try:
        return GAMES[game_id]
    except KeyError:
        raise Refused(f"unknown game {game_id!r} (games: {', '.join(GAMES)})") from None
