"""The Pi's service unit and the udev rule: well-formed, and saying what the README says."""

import configparser
import importlib.util
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
        "Sensing design",
        "Node topology",
        "Bill of materials",
        "Wiring",
        "Shared MISO",
        "Power",
        "Build and flash",
        "A table with no microcontroller",
        "USB serial",
    ):
        assert "## " + heading in text, heading
    assert "mpremote" in text and "pins.toml" in text


def _field_estimate():
    spec = importlib.util.spec_from_file_location("field_estimate", HW / "field_estimate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_quotes_the_field_estimate_verbatim():
    # The README's field, detuning and stack figures are the script's output, between markers:
    # editing either alone (a new assumption, a hand-tuned number) fails here.
    text = (HW / "README.md").read_text()
    begin = text.index("<!-- field_estimate.py output: begin -->\n") + len(
        "<!-- field_estimate.py output: begin -->\n"
    )
    end = text.index("<!-- field_estimate.py output: end -->")
    assert text[begin:end].rstrip("\n").splitlines() == _field_estimate().tables()


def test_field_estimate_reproduces_the_reviewed_geometry():
    # The review's figures: under 18 mm of wood the top of 12 tokens (~65 mm) gets about 1/10 of
    # the ring's field (~21 mm); a 12-stack coupled k = 0.8 falls toward 8.5 MHz. Independent
    # checks of the formulas: H(0) = N I / (2 a) for a loop, and two loops split at f0/sqrt(1+k).
    fe = _field_estimate()
    a = fe.MODULE_RADIUS_MM
    assert 0.08 < fe.on_axis(a, 65) / fe.on_axis(a, 21) < 0.12
    assert abs(fe.field(1.0, 50, 0) - 1.0 / (2 * 0.05)) < 1e-9
    assert abs(fe.lowest_mode(13.56, 0.3, 2) - 13.56 / (1.3**0.5)) < 1e-9
    assert abs(fe.lowest_mode(13.56, 0.8, 12) - 8.5) < 0.1
    assert abs(fe.tag_gain(13.56, 30) - 30) < 1e-9
    assert abs(fe.ampere_turns_for(0.15, 24, 30) * fe.field(1.0, 24, 30) - 0.15) < 1e-12


def test_readme_drops_the_antenna_mux_and_the_usb_back_feed():
    text = (HW / "README.md").read_text()
    assert "seats.Mux" not in text and '"mux"' not in text
    assert "connect the node's USB for data and its 5 V pin to its own supply" not in text
    assert "mutually exclusive" in text
