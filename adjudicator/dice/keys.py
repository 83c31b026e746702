"""A campaign's dice key: the RSA key pair that commits the GM to the dice before any order is sent.

``new`` makes it. The private key lives in ``dice_key.pem`` beside (never inside) ``campaign.xlsx``,
so it is backed up with the campaign folder and never copied into any workbook; the public key (DER,
base64) is a setting of ``campaign.xlsx`` and is printed, with its SHA-256 fingerprint, in every order
workbook and in ``dice_public_key.txt`` (the text the GM posts where every player reads it).

The campaign setting ``dice`` says which dice a campaign uses: ``verifiable`` (new campaigns) or
``keyed`` (the seeded dice of :mod:`adjudicator.dice`; campaigns without the setting).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

PRIVATE_KEY_FILE = "dice_key.pem"
PUBLIC_KEY_FILE = "dice_public_key.txt"
#: The settings of campaign.xlsx (as read, folded: lower case, spaces).
DICE_SETTING = "dice"
PUBLIC_KEY_SETTING = "dice public key"
VERIFIABLE = "verifiable"
KEYED = "keyed"
#: 2048 bits: a signature takes about a millisecond, and the key is far beyond any factoring effort.
KEY_BITS = 2048
#: The very hidden sheet of an order workbook that holds the campaign's public dice key.
KEY_SHEET = "_dice"


class DiceKeyError(ValueError):
    """Raised when a public dice key cannot be read (not base64, not an RSA public key)."""


def dice_kind(settings: dict[str, Any]) -> str:
    """``verifiable`` or ``keyed`` (the default, for campaigns made before verifiable dice)."""
    value = str(settings.get(DICE_SETTING) or KEYED).strip().casefold()
    return VERIFIABLE if value == VERIFIABLE else KEYED


def new_private_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)


def public_der(key: rsa.RSAPublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def public_text(key: rsa.RSAPublicKey) -> str:
    """The public key as one line of base64 (DER SubjectPublicKeyInfo), as printed in workbooks."""
    return base64.b64encode(public_der(key)).decode("ascii")


def fingerprint(key: rsa.RSAPublicKey) -> str:
    """SHA-256 of the DER public key, in hex groups of four (easy to compare by eye)."""
    digest = hashlib.sha256(public_der(key)).hexdigest()
    return " ".join(digest[i:i + 4] for i in range(0, len(digest), 4))


def load_public_text(text: str) -> rsa.RSAPublicKey:
    try:
        key = serialization.load_der_public_key(base64.b64decode("".join(str(text).split()), validate=True))
    except (binascii.Error, ValueError, TypeError) as error:
        raise DiceKeyError(str(error)) from error
    if not isinstance(key, rsa.RSAPublicKey):
        raise DiceKeyError("not an RSA public key")
    return key


def private_key_path(root: Path) -> Path:
    return Path(root) / PRIVATE_KEY_FILE


def write_private_key(key: rsa.RSAPrivateKey, path: Path) -> None:
    """The private key as unencrypted PKCS#8 PEM, readable by its owner only, written atomically."""
    data = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())
    temporary = path.with_name(f".{path.name}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def read_private_key(path: Path) -> rsa.RSAPrivateKey | None:
    """The private key in ``path``; None when it is missing or not an RSA private key."""
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError):
        return None
    return key if isinstance(key, rsa.RSAPrivateKey) else None


def public_post(campaign_id: str, key: rsa.RSAPublicKey) -> str:
    pem = key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    return (f"Dice key of campaign {campaign_id}\n"
            f"SHA-256 fingerprint: {fingerprint(key)}\n\n{pem.decode('ascii')}")


def new_dice_key(root: Path, campaign_id: str, key: rsa.RSAPrivateKey | None = None) -> dict[str, str]:
    """Make (or, for tests, take) the key pair of a new campaign in ``root``; the settings that go into
    campaign.xlsx."""
    key = key or new_private_key()
    write_private_key(key, private_key_path(root))
    (Path(root) / PUBLIC_KEY_FILE).write_text(public_post(campaign_id, key.public_key()), encoding="utf-8")
    return {DICE_SETTING: VERIFIABLE, PUBLIC_KEY_SETTING: public_text(key.public_key())}


def campaign_public_key(settings: dict[str, Any]) -> rsa.RSAPublicKey | None:
    """The public dice key of a campaign using verifiable dice (None for keyed dice or no usable key)."""
    if dice_kind(settings) != VERIFIABLE:
        return None
    try:
        return load_public_text(str(settings.get(PUBLIC_KEY_SETTING) or ""))
    except DiceKeyError:
        return None
