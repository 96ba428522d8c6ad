"""The one message catalog: es and en complete, the same placeholders in both, money in each locale's format,
the pages reading their strings from it, and a new language falling back key by key."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from tapete import i18n


@pytest.mark.parametrize("area", i18n.AREAS)
def test_every_key_is_in_es_and_en_with_the_same_placeholders(area: str) -> None:
    es, en = i18n._file("es", area), i18n._file("en", area)
    assert es and set(es) == set(en), set(es) ^ set(en)
    for key in es:
        assert i18n.placeholders(es[key]) == i18n.placeholders(en[key]), key


def test_money_in_the_locale_format() -> None:
    assert i18n.money("es", 123450) == "1.234,50 €"
    assert i18n.money("en", 123450) == "€1,234.50"
    assert i18n.money("es", -500) == "-5,00 €" and i18n.money("en", 5) == "€0.05"
    assert i18n.money("en", Fraction(5, 2)) == "€0.0250"
    assert i18n.render("es", "common.you-have", amount=i18n.Money(100000)) == "Solo tienes 1.000,00 €."


def test_the_pages_read_the_catalog() -> None:
    from tapete.server.http.web import strings

    assert strings("en")["lobby"] == "Lobby" and strings("es") == i18n.area("es", "web")


def test_a_new_language_falls_back_key_by_key(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    (tmp_path / "gl").mkdir()
    for lang in ("es", "en"):
        (tmp_path / lang).mkdir()
        for area in i18n.AREAS:
            (tmp_path / lang / f"{area}.json").write_text(json.dumps(i18n._file(lang, area)), encoding="utf-8")
    (tmp_path / "gl" / "play.json").write_text(json.dumps({"common.no-bets": "Non hai apostas na mesa."}),
                                               encoding="utf-8")
    monkeypatch.setattr(i18n, "HERE", tmp_path)
    i18n._file.cache_clear()
    i18n.area.cache_clear()
    try:
        assert "gl" in i18n.languages()
        assert i18n.render("gl", "common.no-bets") == "Non hai apostas na mesa."
        assert i18n.render("gl", "common.you-have", amount=i18n.Money(500)) == "Solo tienes 5,00 €."   # from es
    finally:
        i18n._file.cache_clear()
        i18n.area.cache_clear()


def test_the_areas_do_not_shadow_each_other() -> None:
    for lang in ("es", "en"):
        assert not set(i18n._file(lang, "web")) & set(i18n._file(lang, "play"))


def test_every_key_the_terminal_names_is_in_the_catalog() -> None:
    """The literal keys the terminal tables pass to their voice (a typo would be a KeyError at the table)."""
    import re
    from pathlib import Path

    import tapete.terminal

    pattern = re.compile(r"""\b(?:say|warn|t|plain|read|ask|who)\(\s*(?:[A-Za-z_.]+\s*,\s*)?"([a-z0-9-]+\.[a-z0-9.-]+)\"""")
    found = set()
    for path in Path(tapete.terminal.__file__).parent.glob("*.py"):
        found |= set(pattern.findall(path.read_text(encoding="utf-8")))
    assert len(found) > 150
    play = i18n._file("es", "play")
    prefixes = {k for k in found if k.endswith(".")}          # "bac.kind." + b.kind: a family of keys
    assert all(any(key.startswith(p) for key in play) for p in prefixes)
    missing = sorted(k for k in found - prefixes if k not in play and f"{k}.you" not in play)
    assert not missing, missing
