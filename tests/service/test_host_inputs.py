"""The Host's sensed-table inputs: a "pass" names a seat by a whole number, never by ``true``."""

from __future__ import annotations

import pytest

from companion.core.errors import MalformedInput
from companion.service.host_inputs import host_input


class Ended:
    """The part of the sensing bridge a "pass" reaches: whose turn the Host ended."""

    def __init__(self) -> None:
        self.seats: list[int] = []

    def end_turn(self, seat: int) -> None:
        self.seats.append(seat)


def test_a_pass_ends_the_named_seats_turn():
    sensed = Ended()
    host_input(sensed, {"input": "pass", "seat": 2})
    assert sensed.seats == [2]


@pytest.mark.parametrize("seat", [True, None, "1", 1.0])
def test_a_pass_without_a_seat_number_is_refused_naming_seat(seat):
    sensed = Ended()
    with pytest.raises(MalformedInput) as error:
        host_input(sensed, {"input": "pass", "seat": seat})
    assert error.value.field == "seat" and error.value.detail == "must be a seat number"
    assert sensed.seats == []
