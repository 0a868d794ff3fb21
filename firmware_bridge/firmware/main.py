"""Entry point on the Pico (copied to the board's root as ``main.py``)."""

import os
import select
import sys
import time

import machine
from tableside_box import box, config

if not box.maintenance_requested(machine, config.CONFIG):
    box.run(machine, config.CONFIG, box.StdioLink(sys, select), time, os.urandom)
