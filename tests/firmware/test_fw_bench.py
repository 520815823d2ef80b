"""scripts/bench_firmware.py: the floor is computed from frame bits, the model never beats it."""

import importlib.util

import pytest
from fw_paths import ROOT

spec = importlib.util.spec_from_file_location(
    "bench_firmware", ROOT / "scripts" / "bench_firmware.py"
)
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def test_frame_bit_counts():
    assert bench.a_frame_bits(7) == 9  # REQA: short frame
    assert bench.a_frame_bits(16) == 20  # 2 bytes + 2 parity + start + end
    assert bench.a_frame_bits(72) == 83  # SELECT: 9 bytes


def test_floors_grow_linearly():
    assert bench.floor_14443a_ms(2) - bench.floor_14443a_ms(1) == pytest.approx(
        bench.floor_14443a_ms(16) - bench.floor_14443a_ms(15)
    )
    # One ISO 15693 answer (12 bytes at 37.76 us a bit, SOF, EOF, t1, t2) replaces an empty slot.
    step = bench.floor_15693_ms(2) - bench.floor_15693_ms(1)
    assert step == pytest.approx(12 * 8 * 0.03776 + 0.0566 + 0.3092, abs=0.01)


@pytest.mark.parametrize("k", [1, 5, 16])
def test_the_model_never_beats_the_floor(k):
    a_ms, a_exchanges = bench.modelled_mfrc522_ms(k, seed=1)
    v_ms, v_exchanges = bench.modelled_pn5180_ms(k, seed=1)
    assert a_ms > bench.floor_14443a_ms(k)
    assert v_ms > bench.floor_15693_ms(k)
    assert a_exchanges >= 6 * k + 1  # REQA, 2 x (ANTICOLL, SELECT), HLTA per tag, final REQA
    assert v_exchanges % 16 == 0  # whole 16-slot rounds


rate_spec = importlib.util.spec_from_file_location(
    "bench_node_rate", ROOT / "scripts" / "bench_node_rate.py"
)
rate_bench = importlib.util.module_from_spec(rate_spec)
rate_spec.loader.exec_module(rate_bench)


def test_a_node_reads_at_rate_hz_until_its_readers_run_out_of_time():
    assert rate_bench.snapshot_rate("pn5180", 1, 1, seconds=1.0) == pytest.approx(10, abs=0.5)
    # Six full Goblets: about 0.1 s per 12-tag inventory, so each seat is read under 2 Hz.
    assert rate_bench.snapshot_rate("pn5180", 6, 12, seconds=1.0) < 2.5


def test_change_only_replays_firmware_1_0():
    from companion.links import wire

    a, b = "04A1B2C3D4E5F6", "04A1B2C3D4E5F7"
    reads = [(a, b), (a,), (a,), (a, b), (a,), (a,), (a,), (a,)]  # b missed twice, then 4 times
    records = [wire.Snapshot(0, i, 100 * i, tags, "n1") for i, tags in enumerate(reads)]
    records.append(wire.Snapshot(0, 9, 2800, (a,), "n1"))  # unchanged, but 2 s since the last
    sent = rate_bench.change_only(records)
    assert [(s.t_ms, s.tags) for s in sent] == [(0, (a, b)), (600, (a,)), (2800, (a,))]
