"""The bets-to-come term of AIVAT"s value function for heads-up limit hold"em
(:class:`dealer.analysis.aivat.BetValue`): written by ``scripts/fit_aivat_value.py``,
not by hand. :data:`FITTED_FOR` holds the fingerprint of each agent of the matches it
was fitted on (:func:`agents.fingerprint.fingerprint`): a test fails when one of them
plays differently, until the table is fitted again (docs/evaluation/aivat.md)."""

FITTED_ON: tuple[str, ...] = (
    "plicas vs dpp-coarse, seed 60001, 10,000 pairs",
    "plicas-static vs dpp-coarse, seed 60002, 5,000 pairs",
    "kendall-learner vs dpp-coarse, seed 60003, 5,000 pairs",
    "loki2 vs plicas-static, seed 60004, 3,000 pairs",
    "plicas vs plicas-static, seed 60005, 3,000 pairs",
)
"""The matches (acpcbot match ... --aivat) the table was fitted on."""
FITTED_FOR: dict[str, str] = {
    "dpp-coarse": "59b14293bdc4cb72",
    "kendall-learner": "691164d8b2de14c1",
    "loki2": "c3e5296af7a52fee",
    "plicas": "7a7d3bc91db8eb5f",
    "plicas-static": "1c9d7ff0e8aee002",
}
"""Each agent of those matches: its fingerprint when the table was fitted."""

COEFFICIENTS: tuple[tuple[tuple[float, ...], ...], ...] = (
    (
        (0.244386, 0.0568105, -0.00557284, 0.122193, 0.0284053, -0.00278642),
        (0.853286, 0.739543, 1.14777, 0.284429, 0.246514, 0.382589),
        (1.02062, 0.257411, 0.0834816, 0.204124, 0.0514821, 0.0166963),
        (0.584869, 0.584113, 0.8239, 0.0835527, 0.0834447, 0.1177),
        (0, 0, 0, 0, 0, 0),
    ),
    (
        (0.322089, 0.881442, 0.477846, 2.86353, -0.30559, 0.746702),
        (0.729898, -1.25718, 0.445086, 1.18861, 0.0941779, 0.633308),
        (0.104896, 0.159016, 0.087037, 0.132901, 0.0227553, 0.299419),
        (0.108308, -0.00509334, 0.422184, -1.02774, -0.416262, 0.0899683),
        (0.331157, -0.321583, -0.0440543, -0.54945, -0.288953, 0.112571),
    ),
    (
        (0.110227, 0.00713555, 0.112422, 1.38993, -2.48537, 0.585816),
        (0.621182, -0.706847, 0.198251, -1.83151, 0.0419901, -1.95627),
        (-0.597908, 2.3102, 0.12579, -2.02274, -0.227387, -1.06665),
        (1.03553, -1.44903, 0.0660081, -0.498511, -0.55053, 0.391574),
        (0.342243, -0.188887, -0.0702639, 0.233016, 0.197553, 0.260725),
    ),
    (
        (-0.00146281, 0.808033, -0.657728, 1.00153, -5.00649, 3.28487),
        (-0.0826659, -0.041333, 0.410845, -0.393702, -0.196851, -4.43717),
        (0.113993, 0.0569963, 0.286453, -1.94122, -0.970609, -3.2229),
        (0.0340064, 0.0170032, 0.116582, 0.78585, 0.392925, -0.133375),
        (0.0559291, 0.0279646, -0.0882344, -0.291582, -0.145791, -0.869828),
    ),
)
