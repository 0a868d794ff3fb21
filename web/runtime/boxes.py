"""The button boxes: serial box and Pi GPIO presses answer the table's prompts.

Every button event goes to :meth:`web.buttons.TableButtons.press` for the table in focus,
so a box never re-implements a rule. The serial bridge (``firmware_bridge.bridge``) finds,
handshakes and re-opens its port by itself; GPIO is used only on a Raspberry Pi. A small
thread keeps the boxes' LEDs showing what the focused table's prompt accepts, whatever
changed it (a phone, the camera, a button).

The dashboard's software box is not listened to here: its route presses the table itself.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from companion.store.errors import StorageRefused
from firmware_bridge.bridge import SerialBridge
from firmware_bridge.events import ButtonEvent
from firmware_bridge.gpio import GpioButtonBox
from firmware_bridge.link import LinkState
from firmware_bridge.session import Notice
from vision.said import Said, message
from web.runtime.focus import Focus
from web.runtime.status import RUNNING, BoxStatus, GpioStatus

# what the hardware card says of the button box (vision.said: in the page's language)
NOT_LOOKED_FOR = message("box.not_looked_for", "no serial button box looked for")()
NOT_LOOKED_FOR_NONE = message("box.not_looked_for_none",
                              "no serial button box looked for (--box none)")()
LINK_REASONS: dict[str, Said] = {
    made: made for made in (
        message("box.on_time", "heartbeats on time")(),
        message("box.not_connected", "not connected")(),
        message("box.handshaking", "port open, handshaking")(),
        message("box.no_hello", "no answer to HELLO")())}
"""The serial link's reasons that are always the same words (firmware_bridge.session), said
in the page's language; the others (a port's error, a late heartbeat's seconds) as they
are."""

log = logging.getLogger(__name__)

LED_PERIOD = 0.25


class ButtonBoxes:
    def __init__(self, services: Any, focus: Focus, *, bridge: SerialBridge | None = None,
                 port: str | None = None, simulated: bool = False,
                 gpio: GpioButtonBox | None = None, gpio_status: GpioStatus | None = None,
                 on_press: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.services = services
        self.focus = focus
        self.bridge = bridge
        self.port = port
        self.simulated = simulated
        self.gpio = gpio
        self.gpio_status = gpio_status or GpioStatus()
        self._on_press = on_press
        self._presses = {"serial": 0, "gpio": 0}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._leds_loop, name="box-leds", daemon=True)
        if bridge is not None:
            bridge.add_listener(self._on_notice)
        if gpio is not None:
            gpio.add_listener(lambda e: self._on_event(e, "gpio"))

    def start(self) -> ButtonBoxes:
        if self.bridge is not None:
            self.bridge.start()
        if self.gpio is not None:
            self.gpio.start()
        self._thread.start()
        return self

    def stop(self, timeout: float = 3.0) -> bool:
        self._stop.set()
        done = True
        if self._thread.is_alive():
            self._thread.join(timeout)
            done = not self._thread.is_alive()
        if self.bridge is not None:
            done = self.bridge.stop(timeout) and done
        if self.gpio is not None:
            self.gpio.close()
        return done

    # -- events -----------------------------------------------------------------------------
    def _on_notice(self, notice: Notice) -> None:
        if isinstance(notice, ButtonEvent):  # stale events and link notices answer nothing
            self._on_event(notice, "serial")

    def _on_event(self, event: ButtonEvent, kind: str) -> None:
        with self._lock:
            self._presses[kind] += event.kind == "press"
        table = self.focus.table()
        if table is None:
            return
        buttons = self.services.buttons_for(table)
        try:
            result = buttons.press(table, event)
        except StorageRefused as exc:  # nothing was written: the storage status says why
            log.warning("button %d on table %s: %s", event.button, table.session_id, exc)
            storage_refused = getattr(self.services, "storage_refused", None)
            if storage_refused is not None:
                storage_refused(exc)
            return
        except Exception as exc:  # the rules said no, or a stale table: log it, go on
            log.info("button %d on table %s: %s", event.button, table.session_id, exc)
            return
        if result is not None and self._on_press is not None:
            self._on_press({"table": table.session_id, "answer": result["answer"],
                            "source": event.source})
        self._refresh_leds()

    # -- LEDs -------------------------------------------------------------------------------
    def _leds_loop(self) -> None:
        while not self._stop.wait(LED_PERIOD):
            try:
                self._refresh_leds()
            except Exception:  # a table mid-change or a box going away: try again soon
                log.debug("refreshing the LEDs failed", exc_info=True)

    def _refresh_leds(self) -> None:
        table = self.focus.table()
        modes = ["0", "0", "0", "0"]
        if table is not None:
            modes = self.services.buttons_for(table).leds(table)
        if self.bridge is not None:
            self.bridge.set_leds(_fit(modes, 4))
        if self.gpio is not None:
            self.gpio.set_leds(_fit(modes, len(self.gpio_status.leds)))

    # -- status -----------------------------------------------------------------------------
    def box_status(self) -> BoxStatus:
        if self.bridge is None:
            return BoxStatus(port=self.port, detail=NOT_LOOKED_FOR_NONE if self.port == "none"
                             else NOT_LOOKED_FOR)
        s = self.bridge.status()
        device = s.device
        with self._lock:
            presses = self._presses["serial"]
        return BoxStatus(
            port=s.port or self.port, state=s.state.value, connected=s.state.is_up,
            detail=LINK_REASONS.get(s.reason, s.reason), simulated=self.simulated,
            firmware=device.firmware if device else None,
            protocol=device.proto if device else None,
            board=device.board if device else None, presses=presses,
            counters=dict(s.counters))

    def gpio_json(self) -> dict[str, Any]:
        status = self.gpio_status
        with self._lock:
            status.presses = self._presses["gpio"]
        if self.gpio is not None:  # else as the runtime found it: off (not used) or absent
            status.state = RUNNING
        return status.to_json()

    @property
    def box_connected(self) -> bool:
        return self.bridge is not None and self.bridge.status().state in (
            LinkState.CONNECTED, LinkState.DEGRADED)


def _fit(modes: list[str], n: int) -> list[str]:
    return (list(modes) + ["0"] * n)[:n]
