"""Dice every player can check: each die is the hash of a unique signature by the campaign's dice key.

For every die the GM's program signs a canonical message (campaign, turn, purpose, index of the die,
digest of the turn's accepted submissions) with the campaign's RSA key, PKCS#1 v1.5 and SHA-256. That
signature is *unique*: for one key and one message there is exactly one valid signature, so the GM can
make no other, and cannot choose among values. The die's value is an unbiased integer from
SHA-256(signature) by rejection sampling. Anyone with the public key (printed in every order workbook
before the turn) can check the signature and recompute the value; nobody without the private key can
compute a roll before it is made, or a roll they were not shown.

The purposes stay those of :mod:`adjudicator.dice`, so a roll does not depend on unrelated orders, and a
turn resolved again with the same inputs gives the same dice. Because the digest of the submissions is
signed too, a die changes when any accepted workbook of the turn changes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from adjudicator.dice import Dice

MESSAGE_KIND = "adjudicator-dice"
MESSAGE_VERSION = 1


def submissions_list(hashes_by_faction: Mapping[str, str]) -> list[tuple[str, str]]:
    """The (faction, SHA-256 of its accepted file) pairs, sorted by faction."""
    return sorted((str(f), str(h).lower()) for f, h in hashes_by_faction.items())


def submissions_digest(pairs: Iterable[tuple[str, str]]) -> str:
    """SHA-256 (hex) over the lines ``FACTION SHA256\\n`` of the sorted list of accepted submissions."""
    text = "".join(f"{faction} {sha}\n" for faction, sha in sorted((str(f), str(h).lower()) for f, h in pairs))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def message(campaign: str, turn: int, purpose: str, index: int, digest: str) -> bytes:
    """The canonical message signed for one die (compact JSON, sorted keys, UTF-8)."""
    fields = {"kind": MESSAGE_KIND, "version": MESSAGE_VERSION, "campaign": str(campaign), "turn": int(turn),
              "purpose": str(purpose), "index": int(index), "submissions": str(digest)}
    return json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def value_of(signature: bytes, sides: int) -> int:
    """An unbiased integer in 1..sides from SHA-256(signature); on the (tiny) rejected range, the next
    candidate is SHA-256(signature || counter) with a 4-byte big-endian counter 1, 2, …"""
    if sides < 1:
        raise ValueError(f"a die needs at least one side, not {sides}")
    space = 1 << 256
    limit = space - space % sides
    counter = 0
    while True:
        data = signature if counter == 0 else signature + counter.to_bytes(4, "big")
        word = int.from_bytes(hashlib.sha256(data).digest(), "big")
        if word < limit:
            return word % sides + 1
        counter += 1


def sign(key: rsa.RSAPrivateKey, data: bytes) -> bytes:
    return key.sign(data, padding.PKCS1v15(), hashes.SHA256())


def signature_valid(key: rsa.RSAPublicKey, signature: bytes, data: bytes) -> bool:
    try:
        key.verify(signature, data, padding.PKCS1v15(), hashes.SHA256())
    except InvalidSignature:
        return False
    return True


@dataclass(frozen=True)
class Proof:
    """One die: where it sits in the turn and the signature its value comes from."""

    purpose: str
    index: int  # 1 for the first die of the roll
    sides: int
    value: int
    signature: bytes


class VerifiableDice(Dice):
    """The dice of one turn from the campaign's dice key; same interface and log as :class:`Dice`."""

    def __init__(self, key: rsa.RSAPrivateKey, campaign: str, turn: int, submissions: Mapping[str, str]) -> None:
        super().__init__(0, turn)
        self._key = key
        self.campaign = str(campaign)
        self.submissions = submissions_list(submissions)
        self.digest = submissions_digest(self.submissions)
        #: The proofs of every die, by purpose, in the order of the dice.
        self.proofs: dict[str, tuple[Proof, ...]] = {}
        #: Who is shown each roll (the ruleset's ``roll_viewers``), worked out once for all the factions' tabs.
        self.viewers: dict[str, set[str]] | None = None

    def _values(self, purpose: str, sides: int, count: int) -> tuple[int, ...]:
        proofs = []
        for index in range(1, count + 1):
            signature = sign(self._key, message(self.campaign, self.turn, purpose, index, self.digest))
            proofs.append(Proof(purpose, index, sides, value_of(signature, sides), signature))
        self.proofs[purpose] = tuple(proofs)
        return tuple(p.value for p in proofs)


def check_die(key: rsa.RSAPublicKey, campaign: str, turn: int, digest: str, proof: Proof) -> str | None:
    """None when ``proof`` is right; else what is wrong: ``signature`` or ``value``."""
    if not signature_valid(key, proof.signature, message(campaign, turn, proof.purpose, proof.index, digest)):
        return "signature"
    if proof.sides < 1 or value_of(proof.signature, proof.sides) != proof.value:
        return "value"
    return None
