"""What each setting of campaign.xlsx is, in the GM's words, for the Settings sheet's third column.

The settings' keys stay as the program reads them (``seed``, ``imap_host``); the column beside the value says
what each is, and is never read back. A key the program does not know (one the GM added) gets no words.
"""

from __future__ import annotations

from adjudicator.i18n import N_, fold, gettext_in

#: The column's header says it is not read, so a GM knows editing it changes nothing.
MEANING_HEADER = N_("What it is (not read)")

MEANINGS = {
    "campaign": N_("The campaign's identifier, written into every order workbook. Do not change it."),
    "title": N_("The name shown on the order workbooks."),
    "ruleset": N_("The rules the turns are resolved by."),
    "seed": N_("The seed of the dice (a whole number)."),
    "turn": N_("The turn to be played next; each resolved turn adds 1."),
    "language": N_("The GM's language and the factions' default one: en, es or ru."),
    "deadline": N_("When the orders are due: a date, a time and a time zone."),
    "secret": N_("Proves which faction a workbook was handed to. Keep it private."),
    "dice": N_("keyed (the dice from the seed) or verifiable (players can check every roll)."),
    "dice public key": N_("The public half of the campaign's dice key: players check the rolls with it."),
    "campaign email": N_("The address players write to, and the sender of every message."),
    "gm email": N_("Where the GM's summary of each mail run goes."),
    "imap host": N_("The mail server orders are fetched from."),
    "imap port": N_("Its port (993 for ssl, 143 otherwise)."),
    "imap user": N_("The mailbox's user name (the campaign's address if blank)."),
    "imap security": N_("ssl, starttls or plain."),
    "smtp host": N_("The mail server messages are sent through."),
    "smtp port": N_("Its port (465 for ssl, 587 for starttls, 25 for plain)."),
    "smtp user": N_("The sender's user name (the campaign's address if blank)."),
    "smtp security": N_("ssl, starttls or plain."),
    "mail password env": N_("The environment variable that holds the mail password."),
    "mail password file": N_("A file that holds the mail password, outside the campaign folder."),
    "deadline policy": N_("At the deadline: wait, resolve or extend."),
    "deadline extension hours": N_("How many hours 'extend' gives."),
    "turn length days": N_("Each resolved turn moves the deadline on by as many days."),
    "max file mb": N_("The size limit of a player's workbook, in MB."),
    "max unpacked mb": N_("The unpacked size limit of a player's workbook, in MB."),
    "max rows": N_("The most rows a player's sheet may have."),
    "max columns": N_("The most columns a player's sheet may have."),
    "max cells": N_("The most cells a player's workbook may have."),
    "max text chars": N_("The longest text a player's cell may hold."),
    "max text total": N_("The most text a player's workbook may hold."),
}


def meaning(key: object, lang: str) -> str:
    """What the setting ``key`` is, in ``lang``; empty for a setting the program does not know."""
    text = MEANINGS.get(fold(key))
    return gettext_in(lang, text) if text else ""
