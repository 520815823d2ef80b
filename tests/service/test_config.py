"""Typed settings: defaults, TOML, unknown keys and wrong types named."""

from pathlib import Path

import pytest

from companion import config
from companion.core.errors import MalformedInput


def test_defaults_need_no_file():
    settings = config.load(None)
    assert settings.web.port == 8080
    assert settings.web.bind == "0.0.0.0"
    assert settings.web.threads >= 2  # pages and the API only: streams hold no thread
    assert settings.web.streams_per_address >= 8 and settings.web.header_timeout > 0
    assert settings.is_virtual
    assert settings.data_dir == Path("./data")
    assert settings.journal_path == Path("./data/journal.sqlite")


def test_toml_file(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(
        'data_dir = "/srv/cup"\n[web]\nport = 9000\n[host]\npin = "2718"\n'
        '[hardware]\nmqtt = "mqtt://localhost:1883"\n[game]\nname = "tribunal"\n'
        "options = { players = 5 }\n[virtual]\npace = 2\n"
    )
    settings = config.load(path)
    assert settings.data_dir == Path("/srv/cup")
    assert settings.web.port == 9000
    assert settings.host.pin == "2718"
    assert settings.hardware.is_configured
    assert not settings.is_virtual
    assert settings.game.options == {"players": 5}
    assert settings.virtual.pace == 2.0


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("[web]\nprot = 1\n", "web.prot"),
        ("colour = 'red'\n", "colour"),
        ("[web]\nport = 'x'\n", "web.port"),
        ("[web]\nport = 70000\n", "web.port"),
        ("[host]\npin = '12'\n", "host.pin"),
        ("[virtual]\nenabled = 1\n", "virtual.enabled"),
        ("web = 3\n", "web"),
        ("[web\n", "config"),
    ],
)
def test_bad_settings_name_the_key(tmp_path, text, field):
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(MalformedInput) as error:
        config.load(path)
    assert error.value.field == field


def test_missing_file_is_typed(tmp_path):
    with pytest.raises(MalformedInput, match="cannot read"):
        config.load(tmp_path / "none.toml")


def test_replace_dotted():
    settings = config.replace(config.Config(), **{"web.port": 0, "host.pin": "1234"})
    assert settings.web.port == 0
    assert settings.host.pin == "1234"
