"""The Pi's service unit and the udev rule: well-formed, and saying what the README says."""

import configparser
import re
import shutil
import subprocess

from fw_paths import ROOT

HW = ROOT / "hardware"


def _unit():
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read_string((HW / "systemd" / "cupbearer.service").read_text())
    return parser


def test_service_runs_companion_serve_as_an_unprivileged_user():
    unit = _unit()
    service = unit["Service"]
    assert " serve " in service["ExecStart"] + " "
    assert service["ExecStart"].split()[0].endswith("/bin/companion")
    assert service["User"] == "cupbearer"
    assert service["Restart"] == "on-failure"
    assert "dialout" in service["SupplementaryGroups"]
    assert "mosquitto.service" in unit["Unit"]["After"]
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    assert "password" not in service["ExecStart"].lower()


def test_service_passes_systemd_analyze(tmp_path):
    text = (HW / "systemd" / "cupbearer.service").read_text()
    companion = ROOT / ".venv" / "bin" / "companion"
    copy = tmp_path / "cupbearer.service"
    copy.write_text(text.replace("/opt/cupbearer/.venv/bin/companion", str(companion)))
    analyze = shutil.which("systemd-analyze")
    if analyze is None:  # a machine without systemd: the parse above is all we can check
        assert "ExecStart=" in copy.read_text()
        return
    result = subprocess.run(
        [analyze, "verify", str(copy)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


RULE = re.compile(r'^[A-Z_]+(\{[A-Za-z_]+\})?(==|!=|\+=|=|:=)"[^"]*"$')


def test_udev_rules_are_well_formed_and_name_the_node():
    lines = [
        line
        for line in (HW / "udev" / "99-cupbearer.rules").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert len(lines) >= 3
    for line in lines:
        keys = [part.strip() for part in line.split(", ")]
        for key in keys:
            assert RULE.match(key), key
        assert 'SUBSYSTEM=="tty"' in keys
        assert 'SYMLINK+="cupbearer-node"' in keys
        assert 'ENV{ID_MM_DEVICE_IGNORE}="1"' in keys
    vendors = {re.search(r'idVendor}=="([0-9a-f]{4})"', line).group(1) for line in lines}
    assert {"2e8a", "10c4"} <= vendors  # Pico W (MicroPython CDC) and ESP32-DevKitC (CP2102N)


def test_readme_covers_what_the_issue_asks():
    text = (HW / "README.md").read_text()
    for heading in (
        "Bill of materials",
        "Wiring",
        "Antennas",
        "Stacked tags",
        "Shared MISO",
        "Power budget",
        "Build and flash",
        "A table with no microcontroller",
        "USB serial",
    ):
        assert "## " + heading in text, heading
    assert "mpremote" in text and "pins.toml" in text
