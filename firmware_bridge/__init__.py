"""Buttons and lights: the serial button box, the Pi's GPIO, the software button box.

Knows nothing of the companion, vision or web packages.

Every source yields ``events.ButtonEvent(button, kind, seq, time, source)``:

* ``bridge.SerialBridge``: a Pico button box over USB serial (pyserial), speaking BBP/1
  (``docs/protocol.md``) through the sans-I/O ``session.HostSession``; reconnects by itself.
* ``gpio.GpioButtonBox``: buttons and LEDs on the Pi's GPIO (gpiozero, injected pin factory).
* ``keys.SoftwareButtonBox``: the keyboard or the dashboard.

``mapping`` turns events into generic answers to the table's prompt ({"action": "confirm"},
{"action": "option", "n": 2}, ...) and says which LEDs to light. ``firmware/`` is the
MicroPython firmware itself (shared codec in ``firmware/bbp.py``); ``fake_machine``,
``faulty_link``, ``rig`` and ``pty_box`` are the fakes and harnesses that run it on the host.
"""
