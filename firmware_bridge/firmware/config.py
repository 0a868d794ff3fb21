"""The box's wiring and timing. Edit the pin numbers to match your build (docs/hardware.md).

Buttons connect a GP pin to GND (internal pull-ups, active low); LEDs sit between a GP pin
and GND through a resistor (active high).
"""

VERSION = "1.0.0"

CONFIG = {
    "buttons": (2, 3, 4, 5, 6, 7, 8, 9),  # GP2..GP9: up to 8 buttons
    "leds": (16, 17, 18, 19),  # GP16..GP19: up to 4 LEDs
    "status_led": "LED",  # the Pico's own LED shows host present / absent; None to skip
    "sample_ms": 2,  # debounce sampling period
    "debounce_samples": 4,  # equal samples in a row to accept a level (8 ms)
    "hold_ms": 600,  # down this long: one "hold" event
    "queue_size": 128,  # events kept while the host is away (oldest dropped beyond)
    "watchdog_ms": 8000,  # the RP2040 maximum is 8388
}
