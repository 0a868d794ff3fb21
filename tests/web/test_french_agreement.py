"""French agrees with what it qualifies: the hardware card's camera (« la caméra ») is
« éteinte » or « perdue », not the masculine of the shared states (« éteint », « perdu »)."""

from __future__ import annotations

from web import i18n


def test_the_cameras_states_agree_with_la_camera():
    fr, en = i18n.load("fr").strings, i18n.load("en").strings
    assert fr["hw.camera"] == "Caméra"
    assert (fr["hw.camera.state.off"], fr["hw.camera.state.lost"]) == ("éteinte", "perdue")
    assert (en["hw.camera.state.off"], en["hw.camera.state.lost"]) == ("off", "lost")
    # the page looks the device's own first (web/static/js/table.js: hw.<name>.state.<state>)
    table_js = (i18n.HERE.parent / "static" / "js" / "table.js").read_text("utf-8")
    assert "`hw.${name}.state.${value.state}`" in table_js


def test_none_yet_agrees_with_the_cards_it_lists():
    """The board setup's card lists: « Cartes Étape … aucun pour l’instant » (une carte)."""
    fr = i18n.load("fr").strings
    assert fr["board.none.milestones"] == "aucune pour l’instant"
    assert fr["board.none.events"] == fr["board.none.treasures"] == "aucun pour l’instant"
    board_js = (i18n.HERE.parent / "static" / "js" / "boardsetup.js").read_text("utf-8")
    assert all(f't("board.none.{kind}")' in board_js
               for kind in ("events", "milestones", "treasures"))
