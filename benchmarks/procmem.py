"""A process's memory as Linux reports it (/proc/PID/status), for the benchmarks."""

from __future__ import annotations

from pathlib import Path


def memory_mb(pid: int | str = "self") -> dict[str, float]:
    """A process's memory in MB: ``VmRSS`` resident, ``VmHWM`` its peak, ``RssFile`` the
    resident pages of files (the libraries' code: a kernel that maps files in large folios
    counts many more of them for the same code) and ``RssAnon`` the process's own.
    ``OSError`` off Linux."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        fields[name] = value.strip()
    return {k: int(fields[k].split()[0]) / 1024
            for k in ("VmRSS", "VmHWM", "RssFile", "RssAnon")}
