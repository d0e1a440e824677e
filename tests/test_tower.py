"""The tower keeps the books: thrown in, came out, stuck inside, freed, spilled."""

import pytest

from companion.rules.engine import IllegalMove
from companion.rules.tower import Drop, Tower

A, B, C, D = "red-tall_can", "blue-short_can", "mint-tall_can", "white-stubby_can"


def test_a_new_tower_is_empty():
    assert Tower().inside == frozenset()


def test_everything_thrown_comes_out():
    t, drop = Tower().drop(thrown=(A, B), out=(B, A))
    assert t.inside == frozenset()
    assert drop.thrown == (A, B)
    assert drop.out == tuple(sorted((A, B)))
    assert drop.freed == ()
    assert drop.stuck == ()


def test_what_does_not_come_out_is_stuck():
    t, drop = Tower().drop(thrown=(A, B, C), out=(A,))
    assert t.inside == {B, C}
    assert drop.stuck == tuple(sorted((B, C)))
    assert drop.freed == ()


def test_nothing_comes_out():
    t, drop = Tower().drop(thrown=(A, B), out=())
    assert t.inside == {A, B}
    assert drop.out == ()


def test_a_stuck_drink_is_freed_by_a_later_drop():
    t, _ = Tower().drop(thrown=(A, B), out=(A,))
    assert t.inside == {B}
    t, drop = t.drop(thrown=(C,), out=(B, C))
    assert drop.freed == (B,)
    assert drop.out == tuple(sorted((B, C)))
    assert t.inside == frozenset()


def test_a_later_drop_may_free_stuck_drinks_and_leave_new_ones_stuck():
    t, _ = Tower().drop(thrown=(A, B), out=())
    t, drop = t.drop(thrown=(C, D), out=(A,))
    assert drop.freed == (A,)
    assert t.inside == {B, C, D}
    assert drop.stuck == tuple(sorted((B, C, D)))


def test_a_drop_with_nothing_thrown_may_still_free_stuck_drinks():
    t, _ = Tower().drop(thrown=(A,), out=())
    t, drop = t.drop(thrown=(), out=(A,))
    assert drop.freed == (A,) and t.inside == frozenset()


def test_drop_leaves_the_old_tower_unchanged():
    t0, _ = Tower().drop(thrown=(A, B), out=())
    t1, _ = t0.drop(thrown=(C,), out=(A, B, C))
    assert t0.inside == {A, B}
    assert t1.inside == frozenset()


def test_drop_to_json():
    _, drop = Tower().drop(thrown=(A, B), out=(A,))
    assert drop.to_json() == {"thrown": [A, B], "out": [A], "freed": [], "stuck": [B]}
    assert isinstance(drop, Drop)


def test_spill_takes_drinks_out_with_nothing_thrown():
    t, _ = Tower().drop(thrown=(A, B, C), out=())
    t = t.spill((A, C))
    assert t.inside == {B}


# --- errors --------------------------------------------------------------------------------

def test_a_drink_out_that_never_went_in_is_illegal():
    with pytest.raises(IllegalMove) as err:
        Tower().drop(thrown=(A,), out=(B,))
    assert B in err.value.reason
    assert "cannot have come out" in err.value.reason
    assert "thrown in or stuck inside" in err.value.reason


def test_the_same_drink_out_twice_is_illegal():
    with pytest.raises(IllegalMove) as err:
        Tower().drop(thrown=(A, B), out=(A, A))
    assert "twice" in err.value.reason


def test_throwing_a_drink_already_inside_is_illegal():
    t, _ = Tower().drop(thrown=(A, B), out=(A,))
    with pytest.raises(IllegalMove) as err:
        t.drop(thrown=(B, C), out=())
    assert B in err.value.reason
    assert "inside the tower already" in err.value.reason
    assert t.inside == {B}


def test_a_spill_of_a_drink_not_inside_is_illegal():
    t, _ = Tower().drop(thrown=(A,), out=())
    with pytest.raises(IllegalMove) as err:
        t.spill((B,))
    assert B in err.value.reason and "stuck inside the tower" in err.value.reason


def test_a_spill_of_a_duplicate_is_illegal():
    t, _ = Tower().drop(thrown=(A, B), out=())
    with pytest.raises(IllegalMove, match="twice"):
        t.spill((A, A))


def test_an_empty_spill_is_illegal():
    with pytest.raises(IllegalMove) as err:
        Tower().spill(())
    assert "at least one" in err.value.reason


def test_illegal_move_is_a_value_error_with_its_reason_as_message():
    with pytest.raises(ValueError) as err:
        Tower().spill((A,))
    assert str(err.value) == err.value.reason
