"""The dice are fair: exactly so by construction (rejection sampling), and plausibly so on large samples.

The chi-square p-values are computed without scipy, from the closed form of the chi-square survival
function for integer degrees of freedom. The secret is fixed, so these tests are deterministic: a pass today
is a pass forever, and a failure means the algorithm changed.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter

import pytest

from adjudicator.dice import dice_from_bytes, roll

KEY = hashlib.sha256(b"adjudicator dice statistics").digest()
P_MIN = 0.001


def chi2_sf(x: float, k: int) -> float:
    """P(X >= x) for X ~ chi-square with k degrees of freedom (k a positive integer).

    Even k: e^(-x/2) * sum_{j<k/2} (x/2)^j / j!.
    Odd k: erfc(sqrt(x/2)) + sqrt(2x/pi) e^(-x/2) * sum_{j=1}^{(k-1)/2} x^(j-1) / (1*3*...*(2j-1)),
    which for k = 5 is erfc(sqrt(x/2)) + sqrt(2x/pi) e^(-x/2) (1 + x/3).
    """
    if x <= 0:
        return 1.0
    if k % 2 == 0:
        term, total = 1.0, 0.0
        for j in range(k // 2):
            if j:
                term *= (x / 2) / j
            total += term
        return math.exp(-x / 2) * total
    term, total = 1.0, 0.0
    for j in range(1, (k - 1) // 2 + 1):
        if j > 1:
            term *= x / (2 * j - 1)
        total += term
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * total


def chi2_sf_numeric(x: float, k: int, steps: int = 200_000) -> float:
    """1 - CDF by Simpson's rule on the density, as an independent check of the closed form."""
    def pdf(t: float) -> float:
        if t == 0:
            return 0.0 if k > 2 else (0.5 if k == 2 else math.inf)
        return math.exp((k / 2 - 1) * math.log(t) - t / 2 - (k / 2) * math.log(2) - math.lgamma(k / 2))

    h = x / steps
    s = pdf(0) + pdf(x) + sum((4 if i % 2 else 2) * pdf(i * h) for i in range(1, steps))
    return 1 - s * h / 3


# Critical values of the chi-square distribution at p = 0.001 (standard tables) and one at p = 0.05.
@pytest.mark.parametrize("x, k, p", [
    (20.515, 5, 0.001), (18.467, 4, 0.001), (22.458, 6, 0.001), (27.877, 9, 0.001),
    (31.264, 11, 0.001), (43.820, 19, 0.001), (11.070, 5, 0.05), (3.841, 1, 0.05),
])
def test_chi2_sf_against_tables(x, k, p):
    assert chi2_sf(x, k) == pytest.approx(p, rel=2e-3)


@pytest.mark.parametrize("x, k", [(20.515, 5), (7.3, 5), (12.0, 6), (30.0, 19)])
def test_chi2_sf_against_numeric_integration(x, k):
    assert chi2_sf(x, k) == pytest.approx(chi2_sf_numeric(x, k), abs=1e-7)


def chi_square(counts: Counter, sides: int) -> tuple[float, int]:
    total = sum(counts.values())
    expected = total / sides
    return sum((counts[face] - expected) ** 2 / expected for face in range(1, sides + 1)), total


def sample(sides: int, groups: int, count: int, tag: str) -> Counter:
    counts: Counter = Counter()
    for g in range(groups):
        counts.update(roll(KEY, "stats", g % 50 + 1, f"{tag}:d{sides}:{g}", sides, count))
    return counts


def test_600k_d6_are_fair():
    counts = sample(6, 600, 1000, "long")
    stat, n = chi_square(counts, 6)
    assert n == 600_000
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert chi2_sf(stat, 5) > P_MIN, f"chi2 = {stat:.2f}, counts = {sorted(counts.items())}"
    # One face's frequency has sd sqrt(p(1-p)/n) ~ 0.00048, i.e. 0.29 % of 1/6: a 1 % band is ~3.5 sd.
    for face in range(1, 7):
        assert abs(counts[face] / n - 1 / 6) < 0.01 / 6, (face, counts[face])


def test_many_short_groups_are_fair():
    """Battles roll a few dice per group, so the first bytes of each stream matter most."""
    counts = sample(6, 60_000, 3, "short")
    stat, _ = chi_square(counts, 6)
    assert chi2_sf(stat, 5) > P_MIN, f"chi2 = {stat:.2f}"


@pytest.mark.parametrize("sides", [5, 7, 10, 12, 20])
def test_other_dice_are_fair(sides):
    counts = sample(sides, 100, 1000, "other")
    stat, n = chi_square(counts, sides)
    assert n == 100_000
    assert chi2_sf(stat, sides - 1) > P_MIN, f"chi2 = {stat:.2f}, counts = {sorted(counts.items())}"


@pytest.mark.parametrize("sides", range(2, 257))
def test_rejection_sampling_is_exactly_uniform(sides):
    """Over all 256 byte values, every face is hit by exactly the same number of accepted bytes."""
    values = dice_from_bytes(range(256), sides, 256)
    counts = Counter(values)
    assert set(counts) == set(range(1, sides + 1))
    assert set(counts.values()) == {256 // sides}
    assert len(values) == 256 - 256 % sides
