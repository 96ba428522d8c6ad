"""Who registers: a user name of the allowed characters, a password of the policy, an adult's date of birth, and a
Spanish identity document (DNI or NIE) whose check letter is right. Each refusal names its field, so a page puts
the sentence next to it.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from tapete.core.errors import TapeteError
from tapete.server.accounts import MIN_PASSWORD, check_password

LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"          # the check letter of n is LETTERS[n % 23] (Ministerio del Interior)
DNI = re.compile(r"^(\d{8})([A-Z])$")
NIE = re.compile(r"^([XYZ])(\d{7})([A-Z])$")
USERNAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


class FieldError(TapeteError):
    """A refusal of one field of a form: the error document names it (`field`) and which rule it breaks (`reason`),
    for the page to say it next to the field in the player's language."""

    def __init__(self, code: str, message: str, field: str, reason: str) -> None:
        super().__init__(code, message)
        self.field = field
        self.reason = reason

    def document(self) -> dict[str, Any]:
        doc = super().document()
        doc["error"]["field"] = self.field
        doc["error"]["reason"] = self.reason
        return doc


def normalise_document(text: str) -> str:
    """Upper case, without spaces, dots or hyphens: '12.345.678-z' and '12345678Z' are one document."""
    return re.sub(r"[\s.\-]", "", text or "").upper()


def check_document(text: str) -> str:
    """The normalised document, or a refusal saying what is wrong with it: a DNI is 8 digits and a letter, a NIE
    X, Y or Z, 7 digits and a letter; the letter is the official one for the number (mod 23)."""
    doc = normalise_document(text)
    found = DNI.match(doc)
    if found:
        number, letter = int(found[1]), found[2]
    else:
        found = NIE.match(doc)
        if not found:
            raise FieldError("bad-document", "an identity document is a DNI (8 digits and a letter) or a NIE "
                             "(X, Y or Z, 7 digits and a letter)", "document", "format")
        number, letter = int(str("XYZ".index(found[1])) + found[2]), found[3]
    if LETTERS[number % 23] != letter:
        raise FieldError("bad-document", "the letter of this identity document does not match its number: "
                         "check the document", "document", "letter")
    return doc


def age_on(birth: date, today: date) -> int:
    return today.year - birth.year - ((today.month, today.day) < (birth.month, birth.day))


def check_birth_date(text: str, today: date, minimum_age: int) -> date:
    """The date of birth, or a refusal: a real date (YYYY-MM-DD), in the past, of someone `minimum_age` or over."""
    try:
        birth = date.fromisoformat(text or "")
    except ValueError:
        raise FieldError("bad-birth-date", "the date of birth is a day, a month and a year (YYYY-MM-DD)", "birth_date", "format") from None
    if birth > today or birth.year < 1900:
        raise FieldError("bad-birth-date", "this date of birth cannot be right: check it", "birth_date", "impossible")
    if age_on(birth, today) < minimum_age:
        raise FieldError("under-age", f"you must be {minimum_age} or over to play", "birth_date", "age")
    return birth


def check_username(name: str) -> str:
    """A user name: 1 to 64 letters, digits, '.', '_' or '-' — each refusal says which rule it breaks."""
    if not name:
        raise FieldError("bad-username", "choose a user name", "username", "empty")
    if any(ch.isspace() for ch in name):
        raise FieldError("bad-username", "a user name has no spaces", "username", "spaces")
    if len(name) > 64:
        raise FieldError("bad-username", "a user name has at most 64 characters", "username", "long")
    if not USERNAME.match(name):
        raise FieldError("bad-username", "a user name has only letters without accents, digits, '.', '_' and '-'", "username", "chars")
    return name


def check_new_password(password: str, username: str) -> None:
    """The accounts policy (accounts.py), its refusal placed on the password field."""
    try:
        check_password(password, username)
    except TapeteError as exc:
        raise FieldError(exc.code, exc.message, "password", "short" if len(password) < MIN_PASSWORD else "common") from None
