"""Every subcommand, at every level, answers ``--help`` (the brief: "--help everywhere")."""

from __future__ import annotations

import argparse
import re

import pytest

from web.cli import build_parser, main


def subcommand_paths(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()
                     ) -> list[tuple[str, ...]]:
    paths = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                paths.append((*prefix, name))
                paths.extend(subcommand_paths(sub, (*prefix, name)))
    return paths


PATHS = subcommand_paths(build_parser())


def help_text(capsys, *path: str) -> str:
    """What ``tableside PATH --help`` prints, its white space made single spaces (the
    wrapping depends on the terminal's width)."""
    with pytest.raises(SystemExit):
        main([*path, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_the_groups_of_the_foundation_are_there():
    assert {("odds",), ("play",), ("serve",), ("sessions",), ("sessions", "export")} <= set(PATHS)


@pytest.mark.parametrize("path", [(), *PATHS], ids=lambda p: " ".join(p) or "tableside")
def test_help_everywhere(capsys, path):
    with pytest.raises(SystemExit) as exit_:
        main([*path, "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: tableside")
    assert len(out.splitlines()) > 2


@pytest.mark.parametrize("path", [("read-dice",), ("watch",), ("serve",)])
def test_the_commands_that_read_dice_say_how_to_choose_the_engine(capsys, path):
    out = help_text(capsys, *path)
    assert "ONNX Runtime" in out and "TABLESIDE_VISION_ENGINE=opencv" in out


@pytest.mark.parametrize("path", [("calibrate",), ("watch",), ("serve",)])
def test_the_commands_that_open_a_camera_say_how_to_see_opencvs_log(capsys, path):
    out = help_text(capsys, *path)
    assert "OPENCV_LOG_LEVEL=WARNING" in out


def test_enroll_says_where_profiles_go_and_that_the_table_can_enroll_by_itself(capsys):
    out = help_text(capsys, "enroll")
    assert "tableside/vision/profiles" in out
    assert "--die seafall --profile seafall" in out
    assert "Enrolling at the table" in out
    from web.runtime.dicereaders import STARTER_PER_FACE  # the help says it in words, not imported

    assert f"been named {STARTER_PER_FACE} times" in out


def test_read_dice_says_what_a_question_mark_means(capsys):
    out = help_text(capsys, "read-dice")
    assert "marked ? where the reader is not sure" in out
    assert "exits 1 if a photo could not be read" in out


@pytest.mark.parametrize("path", [(), *PATHS], ids=lambda p: " ".join(p) or "tableside")
def test_help_is_plain_text(capsys, path):
    """Many a --help is its module's docstring: profiles and cameras printed its reST
    markup (``serve``, *Watching a stream*), and play, campaign and rules did too."""
    out = help_text(capsys, *path)
    assert "``" not in out
    assert not re.search(r"(?<![\w*])\*[A-Za-z][^*]*\*(?![\w*])", out)
    assert not re.search(r":(func|mod|class|data):`", out)


def test_cameras_and_profiles_help_cite_without_markup(capsys):
    assert '(docs/vision.md, "Watching a stream")' in help_text(capsys, "cameras")
    assert "the camera that serve, calibrate and watch open" in help_text(capsys, "cameras")
    assert "(NAME.npz.<time>.bak beside it" in help_text(capsys, "profiles")
