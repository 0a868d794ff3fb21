from __future__ import annotations

import argparse
import io
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge import installer
from firmware_bridge.bridge import open_serial
from firmware_bridge.pty_box import FakePtyBox
from web.cli import bridge as cli


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tableside")
    sub = parser.add_subparsers(dest="command")
    cli.register(sub)
    return parser.parse_args(argv)


def test_cli_keys_prints_events_and_the_mappings_answers() -> None:
    args = parse(["bridge", "keys", "--game", "seafall", "--expect", "confirm,option:2"])
    out = io.StringIO()
    assert args.handler(args, stdin=io.StringIO("1\n6\nq\n8\n"), out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("mapping seafall; LEDs B400/400 1 0 0")
    assert lines[1:] == [
        "button 0 press (seq 0) -> {'action': 'confirm'}",
        "button 0 release (seq 1) -> -",
        # button 5 also means something when held: a tap answers on release
        "button 5 press (seq 2) -> -",
        "button 5 release (seq 3) -> {'action': 'option', 'n': 2}",
    ]


def test_cli_keys_rejects_an_unknown_expectation(capsys) -> None:
    args = parse(["bridge", "keys", "--expect", "dance"])
    assert args.handler(args, stdin=io.StringIO(""), out=io.StringIO()) == 2
    assert "unknown action" in capsys.readouterr().err


@pytest.mark.parametrize("game, shown", [("SeaFall", "seafall"), ("DEFAULT", "default")])
def test_cli_keys_takes_a_game_in_any_case(game, shown) -> None:
    args = parse(["bridge", "keys", "--game", game])
    out = io.StringIO()
    assert args.handler(args, stdin=io.StringIO("q\n"), out=out) == 0
    assert out.getvalue().startswith(f"mapping {shown};")


def test_cli_keys_refuses_a_game_without_a_mapping(capsys) -> None:
    """It played with the default mapping, saying nothing."""
    args = parse(["bridge", "keys", "--game", "nope"])
    out = io.StringIO()
    assert args.handler(args, stdin=io.StringIO("q\n"), out=out) == 2
    assert out.getvalue() == ""
    assert capsys.readouterr().err.startswith(
        "tableside bridge keys: error: no built-in mapping for the game 'nope' (built-in: "
        "after-the-empire, ")


@pytest.mark.parametrize("content, why", [
    (b"\xfb\x00\x01", "not a text (JSON) file: byte 0 is 0xfb, not UTF-8"),
    ("dir", "a folder, not a mapping file (JSON)"),
])
def test_cli_keys_mapping_that_is_not_a_text_file_says_so(tmp_path: Path, capsys, content,
                                                          why) -> None:
    """A binary file said "'utf-8' codec can't decode byte 0xfb in position 0"."""
    path = tmp_path / "mapping.json"
    if content == "dir":
        path.mkdir()
    else:
        path.write_bytes(content)
    args = parse(["bridge", "keys", "--mapping", str(path)])
    assert args.handler(args, stdin=io.StringIO("q\n"), out=io.StringIO()) == 2
    assert capsys.readouterr().err == f"tableside bridge keys: error: {path}: {why}\n"


def test_cli_keys_mapping_file_missing_or_not_json_says_so_as_other_commands(tmp_path: Path,
                                                                            capsys) -> None:
    """QA: it printed "error: nope.json: [Errno 2] No such file or directory: 'nope.json'":
    no command named, the raw errno. Said as ``tableside play`` says a missing file."""
    missing = tmp_path / "nope.json"
    args = parse(["bridge", "keys", "--mapping", str(missing)])
    assert args.handler(args, stdin=io.StringIO("q\n"), out=io.StringIO()) == 2
    assert capsys.readouterr().err == (f"tableside bridge keys: error: cannot read {missing}: "
                                       "No such file or directory\n")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    args = parse(["bridge", "keys", "--mapping", str(broken)])
    assert args.handler(args, stdin=io.StringIO("q\n"), out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tableside bridge keys: error: {broken}: not JSON: ")
    assert "Errno" not in err and err.count("\n") == 1


def test_cli_monitor_shows_the_box_events_and_health(tmp_path: Path) -> None:
    link = tmp_path / "usb-MicroPython_Board-if00"
    out = io.StringIO()
    with FakePtyBox(link, seed=9) as box:
        box.press(6, 0.03)
        args = parse(["bridge", "monitor", str(link), "--duration", "1.0", "--interval", "0.5"])
        assert args.handler(args, out=out) == 0
    text = out.getvalue()
    assert "link connected" in text
    assert "health: connected on " + str(link) in text
    assert "box e6614104031b2c2f: firmware 1.0.0, protocol 1.0" in text


def test_cli_monitor_of_a_port_that_will_not_open_says_why(tmp_path: Path, capsys) -> None:
    """It said only "disconnected on -", as for a box not yet plugged in; and it exited 0
    though the box never connected."""
    out = io.StringIO()
    args = parse(["bridge", "monitor", str(tmp_path), "--duration", "0.6", "--interval",
                  "0.3"])
    assert args.handler(args, out=out) == 1
    why = (f"cannot open the port: [Errno 21] could not open port {tmp_path}: [Errno 21] Is a "
           "directory")
    assert f"health: disconnected ({why}" in out.getvalue()
    assert capsys.readouterr().err.startswith(
        f"tableside bridge monitor: error: the box never connected on {tmp_path}: {why}")


def test_cli_monitor_of_a_box_that_serve_holds_says_another_program_has_it(
    tmp_path: Path, capsys
) -> None:
    """It said "Could not exclusively lock port ...: [Errno 11] Resource temporarily
    unavailable" while `tableside serve` had the box."""
    link = tmp_path / "usb-MicroPython_Board-if00"
    with FakePtyBox(link, seed=9):
        holder = open_serial(str(link))  # as `tableside serve`'s bridge does
        try:
            out = io.StringIO()
            args = parse(["bridge", "monitor", str(link), "--duration", "0.6", "--interval",
                          "0.3"])
            assert args.handler(args, out=out) == 1
        finally:
            holder.close()
    err = capsys.readouterr().err
    assert err.startswith(f"tableside bridge monitor: error: the box never connected on {link}: "
                          "another program has the box open, probably `tableside serve`")
    assert "stop it" in err and err.count("\n") == 1
    assert "another program has the box open on " + str(link) in out.getvalue()
    for words in ("Resource temporarily unavailable", "exclusively lock", "Errno"):
        assert words not in err + out.getvalue()


def test_cli_monitor_of_a_port_that_does_not_exist_exits_1(tmp_path: Path, capsys) -> None:
    port = tmp_path / "ttyACM9"
    args = parse(["bridge", "monitor", str(port), "--duration", "0.3", "--interval", "0.1"])
    assert args.handler(args, out=io.StringIO()) == 1
    assert "No such file or directory" in capsys.readouterr().err


@pytest.mark.parametrize("option, value, why", [
    ("--duration", "-1", "must be more than 0 seconds, not -1"),  # stopped at once, status 0
    ("--duration", "0", "must be more than 0 seconds, not 0"),
    ("--duration", "nan", "must be more than 0 seconds, not nan"),
    ("--interval", "0", "must be more than 0 seconds, not 0"),  # printed health in a loop
    ("--interval", "-2", "must be more than 0 seconds, not -2"),
    ("--interval", "soon", "not a number of seconds: 'soon'"),
])
def test_cli_monitor_refuses_seconds_that_are_not_more_than_0(capsys, option, value,
                                                             why) -> None:
    with pytest.raises(SystemExit) as exit_:
        parse(["bridge", "monitor", "loop://", f"{option}={value}"])
    assert exit_.value.code == 2
    assert f"argument {option}: {why}" in capsys.readouterr().err


def test_cli_monitor_of_a_port_named_in_no_form_says_so(capsys) -> None:
    args = parse(["bridge", "monitor", "usb:2e8a"])
    assert args.handler(args, out=io.StringIO()) == 2
    assert capsys.readouterr().err == ("tableside bridge monitor: error: expected "
                                       "usb:VID:PID[:SERIAL], got 'usb:2e8a'\n")


def test_cli_monitor_of_a_url_with_an_unknown_option_says_so(capsys) -> None:
    """It printed KeyError('debug|info|warning|error') every few seconds."""
    args = parse(["bridge", "monitor", "loop://?x=1", "--duration", "0.2"])
    assert args.handler(args, out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith("tableside bridge monitor: error: not a loop:// port pyserial can "
                          "open: an unknown option")
    assert "KeyError" not in err


def test_cli_firmware_install_without_a_box_says_so(monkeypatch, capsys) -> None:
    monkeypatch.setattr("firmware_bridge.ports.list_ports.comports", lambda: [])
    monkeypatch.setattr("firmware_bridge.ports._by_id_links", lambda: [])
    args = parse(["firmware", "install"])
    assert args.handler(args, out=io.StringIO()) == 1
    assert capsys.readouterr().err.startswith(
        "tableside firmware install: error: no button box found")


@pytest.mark.parametrize("port, why", [
    ("usb:zz", "expected usb:VID:PID[:SERIAL], got 'usb:zz'"),
    ("usb:2e8a:xyz", "VID and PID are hex numbers (as 2e8a:0005): 'usb:2e8a:xyz'"),
    ("foo://x", "invalid URL, protocol 'foo' not known"),
])
def test_cli_firmware_install_of_a_port_named_in_no_form_is_bad_input(monkeypatch, capsys,
                                                                      port, why) -> None:
    """QA: bad input exited 1 (as a failed install) where every other command exits 2."""
    monkeypatch.setattr(cli, "install", lambda port: pytest.fail("mpremote ran"))
    args = parse(["firmware", "install", port])
    assert args.handler(args, out=io.StringIO()) == 2
    assert capsys.readouterr().err.startswith(f"tableside firmware install: error: {why}")


@pytest.mark.parametrize("argv, words", [
    (["firmware", "install"], ["0 when installed", "1 when no box is found",
                               "2 for a PORT named in no form"]),
    (["bridge", "monitor"], ["1 if the box never connected", "2 for a PORT named in no form"]),
    (["bridge", "keys"], ["2 for bad input"]),
])
def test_cli_bridge_and_firmware_help_say_their_exit_statuses(capsys, argv, words) -> None:
    with pytest.raises(SystemExit) as exit_:
        parse([*argv, "--help"])
    assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Exit status:" in text and all(w in text for w in words)


def test_cli_firmware_install_on_a_port_that_does_not_exist_says_so(tmp_path: Path,
                                                                     capsys) -> None:
    """mpremote said "failed to access ... (it may be in use by another program)"."""
    port = str(tmp_path / "ttyACM9")
    args = parse(["firmware", "install", port])
    assert args.handler(args, out=io.StringIO()) == 1
    assert capsys.readouterr().err == (f"tableside firmware install: error: {port} does not "
                                       "exist: is the box plugged in? ('auto', the default, "
                                       "finds a Pico by its USB id)\n")


def test_installer_command_copies_the_package_and_main_then_resets() -> None:
    cmd = installer.install_command("/dev/ttyACM0", python="py")
    assert cmd[:6] == ["py", "-m", "mpremote", "connect", "/dev/ttyACM0", "resume"]
    copies = [i for i, word in enumerate(cmd) if word == "cp"]
    package = cmd[copies[0] + 1 : copies[0] + 1 + len(installer.PACKAGE_FILES) + 1]
    assert [Path(p).name for p in package[:-1]] == list(installer.PACKAGE_FILES)
    assert package[-1] == ":/lib/tableside_box/"
    assert Path(cmd[copies[1] + 1]).name == "main.py" and cmd[copies[1] + 2] == ":/main.py"
    assert cmd[-1] == "reset"


def test_installer_command_refuses_an_incomplete_firmware(tmp_path: Path) -> None:
    with pytest.raises(installer.InstallError, match="missing"):
        installer.install_command("/dev/ttyACM0", firmware_dir=tmp_path)


def test_installer_reports_mpremote_failure(tmp_path: Path) -> None:
    def runner(command):
        return subprocess.CompletedProcess(command, 1, "", "mpremote: no device found\n")

    port = tmp_path / "ttyACM9"  # there, but no box answers
    port.touch()
    with pytest.raises(installer.InstallError, match="no device found"):
        installer.install(str(port), runner=runner)


def test_installer_says_so_when_mpremote_hangs(tmp_path: Path) -> None:
    """QA: a board that never answered left mpremote running past its limit, and the
    command ended in a TimeoutExpired traceback. A process that overruns is a clear error."""
    def runner(command):  # a real process that outlives its limit, as a hung mpremote does
        return subprocess.run([sys.executable, "-c", "import time; time.sleep(30)"],
                              capture_output=True, text=True, timeout=0.5, check=False)

    port = tmp_path / "ttyACM9"
    port.touch()
    with pytest.raises(installer.InstallError) as error:
        installer.install(str(port), runner=runner)
    assert str(error.value).startswith(f"mpremote did not finish on {port} within 0.5 s")
    assert "plug it in again" in str(error.value)


def test_installer_mpremote_is_installed_and_runs() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mpremote", "version"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0 and "mpremote" in result.stdout


@pytest.mark.hardware
def test_installer_installs_on_a_connected_pico() -> None:
    from firmware_bridge.ports import PortNotFound, PortSpec

    try:
        port = PortSpec("auto").resolve()
    except PortNotFound:
        pytest.skip("no Pico connected")
    installer.install(port)
