"""Every categorical palette of the figures stays readable under red-green colour blindness.

Colour-vision deficiency is simulated with the matrices of Machado, Oliveira & Fernandes
(2009, "A physiologically-based model for simulation of color vision deficiency", IEEE
TVCG 15(6), severity 1.0) applied to linear sRGB; two colours count as distinct when they
are at least 20 units apart in CIEDE2000 (Sharma, Wu & Dalal 2005; D65): about ten times
the just-noticeable difference, enough for small markers on a projector. (CIE76, the
plain CIELAB distance, overstates the difference of saturated colours: orange and light
orange are 24 CIE76 units apart, 12.5 in CIEDE2000.) Palettes whose colours may come
closer carry a text label on every element (the Prayatul cells, the pair types).
"""
import itertools

import numpy as np
import pytest
from matplotlib.colors import to_rgb

from prayatul_edu.plots._style import CATEGORICAL_PALETTES, CELL_COLORS, cluster_colors

SIMULATIONS = {
    "normal vision": np.eye(3),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
}
_SRGB_TO_XYZ = np.array([[0.4124564, 0.3575761, 0.1804375],
                         [0.2126729, 0.7151522, 0.0721750],
                         [0.0193339, 0.1191920, 0.9503041]])
_WHITE = np.array([0.95047, 1.0, 1.08883])
MIN_DELTA_E = 20.0


def lab(color, simulation: str) -> np.ndarray:
    """CIELAB of ``color`` as seen with ``simulation``."""
    c = np.asarray(to_rgb(color))
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    linear = np.clip(SIMULATIONS[simulation] @ linear, 0.0, 1.0)
    t = _SRGB_TO_XYZ @ linear / _WHITE
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def ciede2000(lab1, lab2) -> float:
    """CIEDE2000 colour difference of two CIELAB colours (Sharma, Wu & Dalal 2005)."""
    (L1, a1, b1), (L2, a2, b2) = lab1, lab2
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean ** 7 / (c_mean ** 7 + 25.0 ** 7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = np.hypot(a1, b1), np.hypot(a2, b2)
    h1, h2 = np.degrees(np.arctan2(b1, a1)) % 360, np.degrees(np.arctan2(b2, a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_hue = 2 * np.sqrt(c1 * c2) * np.sin(np.radians(dh / 2))
    l_mean, c_mean = (L1 + L2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * np.cos(np.radians(h_mean - 30)) + 0.24 * np.cos(np.radians(2 * h_mean))
         + 0.32 * np.cos(np.radians(3 * h_mean + 6)) - 0.20 * np.cos(np.radians(4 * h_mean - 63)))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    r_t = (-2 * np.sqrt(c_mean ** 7 / (c_mean ** 7 + 25.0 ** 7))
           * np.sin(np.radians(60 * np.exp(-(((h_mean - 275) / 25) ** 2)))))
    dl, dc, dh_ = (L2 - L1) / s_l, (c2 - c1) / s_c, d_hue / s_h
    return float(np.sqrt(dl ** 2 + dc ** 2 + dh_ ** 2 + r_t * dc * dh_))


def delta_e(a, b, simulation: str) -> float:
    return ciede2000(lab(a, simulation), lab(b, simulation))


def test_the_conversion_matches_known_cielab_values():
    assert lab("#ffffff", "normal vision") == pytest.approx([100, 0, 0], abs=0.01)
    assert lab("#ff0000", "normal vision") == pytest.approx([53.24, 80.09, 67.20], abs=0.05)
    assert lab("#0000ff", "normal vision") == pytest.approx([32.30, 79.19, -107.86], abs=0.05)
    for simulation in SIMULATIONS:                           # greys stay grey
        assert lab("#808080", simulation)[1:] == pytest.approx([0, 0], abs=1.0)


@pytest.mark.parametrize("lab1, lab2, expected", [       # Sharma, Wu & Dalal's test data
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 2.5, 0.0), (50.0, 0.0, -2.5), 4.3065),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
])
def test_ciede2000_matches_the_published_test_data(lab1, lab2, expected):
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_the_old_cluster_colours_were_too_close_as_the_issue_measured():
    # orange and light orange of the nine-colour palette: 12.5 for normal vision
    assert delta_e("#e69f00", "#ffbc79", "normal vision") == pytest.approx(12.5, abs=0.1)


def test_the_simulation_merges_red_and_green_as_the_issue_reported():
    # the old Prayatul colours: BR green and WR red became the same olive (ΔE 6.4)
    assert delta_e("#4c9a2a", "#d62728", "deuteranopia") < MIN_DELTA_E
    assert delta_e("#4c9a2a", "#d62728", "normal vision") > MIN_DELTA_E


#: Palettes whose every element also carries its name as text (so colour is never the only
#: way to tell them apart): the Prayatul matrix writes BR/RW/WR/BW in its cells, the pair
#: figures TP/FP/FN/TN in their legend and 0/1 in the cells.
LABELLED = {"Prayatul cells", "pair types"}


@pytest.mark.parametrize("simulation", list(SIMULATIONS))
@pytest.mark.parametrize("palette", sorted(set(CATEGORICAL_PALETTES) - LABELLED))
def test_every_two_colours_of_a_palette_stay_apart(palette, simulation):
    colors = CATEGORICAL_PALETTES[palette]
    close = [(a, b, round(delta_e(a, b, simulation), 1))
             for a, b in itertools.combinations(colors, 2)
             if delta_e(a, b, simulation) < MIN_DELTA_E]
    assert close == [], f"{palette} under {simulation}: too close {close}"


@pytest.mark.parametrize("simulation", list(SIMULATIONS))
def test_coloured_marks_stand_out_from_the_white_background(simulation):
    marks = [c for name, colors in CATEGORICAL_PALETTES.items() if name != "pair types"
             for c in colors]                 # TN is the light background-like pair type
    assert min(delta_e(c, "#ffffff", simulation) for c in marks) >= MIN_DELTA_E


@pytest.mark.parametrize("simulation", list(SIMULATIONS))
@pytest.mark.parametrize("k", range(2, 13))        # the apps offer up to 10 clusters
def test_any_two_clusters_differ_in_colour_or_in_marker_for_every_k(k, simulation):
    from prayatul_edu.plots._style import cluster_markers

    labels = [*range(k), -1]
    looks = list(zip(cluster_colors(labels).tolist(), cluster_markers(labels).tolist()))
    alike = [(a, b) for a, b in itertools.combinations(looks, 2)
             if a[1] == b[1] and delta_e(a[0], b[0], simulation) < MIN_DELTA_E]
    assert alike == []


def test_clusters_get_distinct_colours_up_to_the_palettes_size_and_noise_black():
    colors = cluster_colors([*range(6), -1])
    assert len(set(colors[:6].tolist())) == 6 and colors[6] == "#000000"
    assert set(CELL_COLORS) == {"BR", "RW", "WR", "BW"}


def test_clusters_beyond_the_palette_change_marker_and_noise_stays_black():
    from prayatul_edu.plots._style import CLUSTER_MARKERS, CLUSTER_PALETTE, cluster_markers

    labels = [*range(12), -1]
    colors, markers = cluster_colors(labels), cluster_markers(labels)
    assert colors[6] == colors[0] == CLUSTER_PALETTE[0]          # the palette repeats ...
    assert markers[6] == CLUSTER_MARKERS[1] != markers[0]         # ... with the next shape
    assert colors[12] == "#000000" and markers[12] == markers[0]
    assert len(set(zip(colors.tolist(), markers.tolist()))) == 13


def test_a_scatter_of_twelve_clusters_draws_no_two_alike():
    # what is on the Axes: each point's face colour and marker path, per cluster
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_hex

    from prayatul_edu.plots import plot_clustering

    rng = np.random.default_rng(12)
    labels = rng.permutation(np.repeat(np.arange(1, 13), 5))
    X = rng.normal(size=(labels.size, 2))
    ax = plot_clustering(X, labels)
    style_of = {}
    for points in ax.collections:
        faces = points.get_facecolor()              # one row, or one per point
        marker = points.get_paths()[0].vertices.round(6).tobytes()
        for i, (x, y) in enumerate(points.get_offsets()):
            colour = to_hex(faces[i if len(faces) > 1 else 0])
            style_of[(round(float(x), 9), round(float(y), 9))] = (colour, marker)
    styles = {}
    for (x, y), label in zip(X, labels):
        styles.setdefault(int(label), set()).add(style_of[(round(x, 9), round(y, 9))])
    plt.close(ax.figure)
    assert len(style_of) == labels.size
    assert all(len(s) == 1 for s in styles.values())              # one look per cluster
    looks = [next(iter(s)) for s in styles.values()]
    assert len(set(looks)) == 12                                   # no two clusters alike
    assert len({colour for colour, _ in looks}) == 6              # colours alone repeat


def test_an_apps_redrawn_scatter_keeps_twelve_clusters_apart():
    # the apps redraw plot_clustering's panel in place: one line per colour and shape
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_hex

    from prayatul_edu.plots import plot_clustering
    from prayatul_edu.widgets.drawing import update_scatter

    rng = np.random.default_rng(3)
    labels = np.repeat(np.arange(12), 4)
    X = rng.normal(size=(labels.size, 2))
    ax = plot_clustering(X, np.zeros(labels.size, dtype=int))
    update_scatter(ax, X, labels, "twelve clusters")
    lines = [ln for ln in ax.lines if ln.get_gid() == "points"]
    looks = {(to_hex(ln.get_color()), ln.get_marker()) for ln in lines}
    plt.close(ax.figure)
    assert len(lines) == len(looks) == 12
    assert sum(len(ln.get_xdata()) for ln in lines) == labels.size
    assert len({colour for colour, _ in looks}) == 6
