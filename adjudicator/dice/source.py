"""The dice of a turn, as the campaign's ``dice`` setting says: keyed by the seed, or verifiable (signed by
the campaign's dice key over the turn's accepted submissions)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric import rsa

from adjudicator.dice import Dice
from adjudicator.dice.keys import (
    PRIVATE_KEY_FILE,
    VERIFIABLE,
    campaign_public_key,
    dice_kind,
    new_dice_key,
    private_key_path,
    public_der,
    read_private_key,
)
from adjudicator.dice.verifiable import VerifiableDice
from adjudicator.engine.problems import ProblemList
from adjudicator.engine.ruleset import Campaign
from adjudicator.i18n import Msg, msg


def _fail(code: str, message: Msg, hint: Msg, **where: Any) -> Exception:
    """The pipeline's CampaignError (imported late: the pipeline imports this module)."""
    from adjudicator.turn.pipeline import CampaignError

    problems = ProblemList()
    problems.error(code, message, hint, **where)
    return CampaignError(problems)


def dice_for_turn(root: Path, campaign: Campaign, taken: Mapping[Any, Any], seed: int) -> Dice:
    """``taken``: the accepted submissions by faction (each with its ``sha256``)."""
    if dice_kind(campaign.settings) != VERIFIABLE:
        return Dice(seed, campaign.turn)
    public = campaign_public_key(campaign.settings)
    if public is None:
        raise _fail("M20", msg("The setting dice_public_key of campaign.xlsx is missing or is not a public key."),
                    msg("Put back the key printed in the order workbooks, or set dice to keyed."),
                    file="campaign.xlsx", sheet="Settings")
    key = read_private_key(private_key_path(root))
    if key is None:
        raise _fail("M21", msg("The dice key {file} is missing or cannot be read.", file=PRIVATE_KEY_FILE),
                    msg("Restore it from the backup of the campaign folder: without it no verifiable die can be "
                        "rolled."), file=PRIVATE_KEY_FILE)
    if public_der(key.public_key()) != public_der(public):
        raise _fail("M22", msg("The dice key {file} is not the key whose public half is in campaign.xlsx (and in "
                               "the order workbooks).", file=PRIVATE_KEY_FILE),
                    msg("Restore the campaign's own key from its backup: every player would see a new key."),
                    file=PRIVATE_KEY_FILE)
    hashes = {str(faction): submission.sha256 for faction, submission in taken.items() if faction}
    return VerifiableDice(key, campaign.campaign_id, campaign.turn, hashes)


def use_verifiable_dice(root: Path, key: rsa.RSAPrivateKey | None = None) -> None:
    """Switch an existing campaign (made before verifiable dice, or keyed) to verifiable dice from its
    current turn on: a new key pair beside campaign.xlsx and its public half in the settings. Make new
    order workbooks afterwards, so that they print the key. ``key``: a given key pair instead of a new one."""
    from adjudicator.outputs.writing import atomic_save
    from adjudicator.store import master
    from adjudicator.turn.pipeline import opened

    with opened(root) as (folder, campaign, ruleset):
        if campaign_public_key(campaign.settings) is not None and read_private_key(private_key_path(root)):
            return
        campaign.settings.update(new_dice_key(Path(root), campaign.campaign_id, key))
        wb = master.open_master(folder.master)
        master.write_state(wb, ruleset, campaign, campaign.tables, campaign.turn)
        atomic_save(wb, folder.master)
