"""``spawnkit.files.interrupts``: a signal is never lost and never printed as Python's noise."""

from __future__ import annotations

import signal
import time

import pytest

from spawnkit.files import interrupts


class _SignalledWhileCollected:
    """A signal that lands while Python runs a finalizer (``__del__``, a weakref callback)."""

    def __del__(self) -> None:
        signal.raise_signal(signal.SIGTERM)


def _ordinary_work() -> None:
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_signal_inside_a_finalizer_takes_effect_at_the_next_line(capfd: pytest.CaptureFixture):
    with pytest.raises(KeyboardInterrupt), interrupts.handled():
        _SignalledWhileCollected()  # dropped at once: its __del__ runs here
        _ordinary_work()
    err = capfd.readouterr().err
    assert "Exception ignored" not in err and "Traceback" not in err, err


def test_a_signal_inside_a_finalizer_under_a_write_waits_for_the_write(
    capfd: pytest.CaptureFixture,
):
    done = []
    with pytest.raises(KeyboardInterrupt), interrupts.handled():
        with interrupts.writing():
            _SignalledWhileCollected()
            done.append("the write finished")
        _ordinary_work()
    assert done == ["the write finished"]
    assert interrupts.aborted_message() != interrupts.NOTHING_WRITTEN
    assert "Exception ignored" not in capfd.readouterr().err
