"""A figure as the PNG an app shows, drawing only what changed since the last update.

Drawing costs more than the numbers, mostly text, so a model's ``redraw``
changes its figure in place and tells its :class:`FigureLayers` which artists
it changed; :meth:`FigureLayers.png` keeps the pixels of everything else and
draws only those over them. A test checks the result against a fresh figure.
"""
from __future__ import annotations

import functools
import struct
import zlib

import numpy as np

__all__ = ["FigureLayers", "TextGroup", "encode_png", "new_figure", "lecture_text", "css_width",
           "keep_glyphs", "CSS_DPI", "LECTURE_DPI", "LECTURE_FONT_PT"]

#: CSS pixels per inch: a figure shown at its CSS size shows a point as a point.
CSS_DPI = 96
#: Lecture mode draws figures at twice the CSS density (sharp on HiDPI screens and
#: on projectors driven at 1920 x 1080 with the page zoomed) and shows them at CSS size.
LECTURE_DPI = 2 * CSS_DPI
#: The smallest text of a lecture-mode figure, in points as displayed.
LECTURE_FONT_PT = 16


def new_figure(width: float, height: float, dpi: int = 80):
    """A Figure outside pyplot (apps redraw often; pyplot would keep every one alive),
    on an Agg canvas of its own (kept between updates, see :class:`FigureLayers`)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=dpi)
    _agg_canvas(fig)
    return fig


def css_width(fig) -> str:
    """The CSS width at which ``fig`` shows its text at its size in points (``"768px"``).

    >>> css_width(new_figure(8, 3, dpi=LECTURE_DPI))
    '768px'
    """
    return f"{round(fig.get_figwidth() * CSS_DPI)}px"


def lecture_text(fig, size: float = LECTURE_FONT_PT) -> None:
    """Make every text of ``fig`` (titles, labels, ticks, legends, annotations) at least
    ``size`` points; the tick labels that matplotlib makes later too."""
    from matplotlib.text import Text

    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            ticks = axis.get_major_ticks()
            if ticks and ticks[0].label1.get_fontsize() < size:
                axis.set_tick_params(labelsize=size)
    for text in fig.findobj(Text):
        if text.get_fontsize() < size:
            text.set_fontsize(size)


def _agg_canvas(fig):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    return fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)


# Kept rather than matplotlib's own PNG output (Pillow, which chooses a filter row by
# row) because it takes half the time and gives smaller files. Measured side by side on
# the same figure (the Prayatul explorer's at 1500 points; benchmarks/bench_widgets.py,
# "PNG encoding" table), quiet machine: 1120 x 280 px: 4.9 ms / 59 kB here against
# 10.1 ms / 76 kB with matplotlib.image.imsave(compress_level=1) and 17.5 ms / 73 kB at
# savefig's default level. Lecture mode (1536 x 1075 px, 192 dpi), loaded machine: 57 ms /
# 203 kB against 132 ms / 265 kB and 220 ms / 232 kB: the difference alone would break
# the 100 ms an update may take. (Those are zlib's times; ISA-L deflates them now.)
def _deflate(data) -> bytes:
    """``data`` deflated in zlib's format at level 1: by ISA-L (the isal package, a
    dependency), the same format and size about ten times faster (lecture-mode
    dendrogram figure, 1536 x 1113 px: 1.4 ms against 13.5 ms, 131 kB against 137 kB);
    by zlib on an install without it."""
    return _compressor()(data, 1)


@functools.lru_cache(maxsize=1)
def _compressor():
    """ISA-L's ``compress`` (looked for once), else zlib's."""
    try:
        from isal import isal_zlib
    except ImportError:
        return zlib.compress
    return isal_zlib.compress


def encode_png(rgba: np.ndarray) -> bytes:
    """An H x W x 4 uint8 image as an RGBA PNG: no row filters, deflate level 1.

    Plots are mostly flat colour, which plain deflate packs well. The alpha channel
    is kept: copying the rows whole takes far less time than dropping every fourth
    byte, and an opaque alpha costs deflate little (lecture-mode dendrogram figure,
    1536 x 1113 px: 15 ms / 166 kB as RGBA against 27 ms / 150 kB as RGB).

    >>> encode_png(np.zeros((2, 3, 4), np.uint8))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    height, width = rgba.shape[:2]
    rows = np.empty((height, 1 + 4 * width), np.uint8)
    rows[:, 0] = 0                                    # filter type 0 (none) on every row
    rows[:, 1:] = np.asarray(rgba, dtype=np.uint8).reshape(height, 4 * width)

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + tag + data
                + struct.pack(">I", zlib.crc32(tag + data)))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)   # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", _deflate(rows)) + chunk(b"IEND", b""))


class _GlyphRecorder:
    """Stands in for an Agg renderer's C++ core while a text is drawn: passes every call
    on, and notes the glyph images drawn (any other call makes the text uncacheable)."""

    def __init__(self, core):
        self.core, self.glyphs, self.cacheable = core, [], True

    def draw_text_image(self, image, x, y, angle, gc):
        if isinstance(image, np.ndarray):
            self.glyphs.append((image.copy(), x, y, angle))
        else:                                    # an older matplotlib passes its font
            self.cacheable = False
        return self.core.draw_text_image(image, x, y, angle, gc)

    def __getattr__(self, name):
        self.cacheable = False
        return getattr(self.core, name)


#: Glyph images of texts drawn before, by text, font, angle, density and sub-pixel place
#: (see :func:`keep_glyphs`); emptied when full.
_GLYPHS: dict = {}
_GLYPHS_MAX = 4000
#: Single glyph images, by font, size, density, glyph, angle and the glyph's place modulo
#: a whole pixel (in FreeType's 1/64 pixel): what a text never drawn before is made of.
_GLYPH_IMAGES: dict = {}
_GLYPH_IMAGES_MAX = 20000


def _text_glyphs(renderer, gc, x, y, s, prop, angle, mtext):
    """The glyph images of ``s`` drawn at ``(x, y)`` as ``(image, x, y, 0)`` calls of the
    renderer's core, laid out and placed exactly as matplotlib's Agg ``draw_text`` does
    (its font's layout, FreeType's 26.6 fixed-point places), each glyph rasterised once
    per font, angle and place modulo a whole pixel; None where this matplotlib draws
    text differently (then the text is drawn by matplotlib and its glyphs recorded)."""
    try:
        from matplotlib.backends.backend_agg import get_hinting_flag
        from matplotlib.ft2font import RenderMode

        font = renderer._prepare_font(prop)
        flags = get_hinting_flag()
        items = font._layout(
            s, flags=flags,
            features=mtext.get_fontfeatures() if mtext is not None else None,
            language=mtext.get_language() if mtext is not None else None)
    except (ImportError, AttributeError, TypeError):
        return None
    size, dpi, height = prop.get_size_in_points(), renderer.dpi, renderer.height
    antialiased = bool(gc.get_antialiased())
    cos, sin = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    matrix = (0x10000 * np.array([[cos, -sin], [sin, cos]])).round().astype(int)
    calls = []
    for item in items:
        ft, dx, dy = item.ft_object, item.x, item.y          # dy is upwards
        px = round(0x40 * (x + dx * cos - dy * sin))
        py = round(0x40 * (height - y + dx * sin + dy * cos))
        key = (ft.fname, size, dpi, item.glyph_index, float(angle), px & 63, py & 63,
               antialiased, flags)
        kept = _GLYPH_IMAGES.get(key)
        if kept is None:
            ft.set_size(size, dpi)
            ft._set_transform(matrix, [px, py])
            bitmap = ft._render_glyph(item.glyph_index, flags, RenderMode.NORMAL
                                      if antialiased else RenderMode.MONO)
            image = np.array(bitmap.buffer)
            if not antialiased:
                image *= 0xff
            if len(_GLYPH_IMAGES) >= _GLYPH_IMAGES_MAX:
                _GLYPH_IMAGES.clear()
            # the bitmap's corner, from the glyph's whole-pixel place
            kept = _GLYPH_IMAGES[key] = (image, bitmap.left - (px >> 6), bitmap.top - (py >> 6))
        image, left, top = kept
        calls.append((image, left + (px >> 6),
                      int(height) - (top + (py >> 6)) + image.shape[0], 0))
    return calls


def keep_glyphs(renderer) -> None:
    """Make ``renderer`` (Agg) draw a text it drew before from the glyph images it made
    then, moved by whole pixels: the same pixels, without laying the text out and
    rasterising every glyph again (matplotlib 3.11 does both per glyph, 1 to 2 ms a
    label at lecture density; an update redraws dozens of tick labels and titles).
    A text never drawn before (a new number) is laid out, and made of the glyph images
    kept from any text: each glyph is rasterised once per place modulo a whole pixel.

    FreeType places glyphs at 1/64 pixel, so a text moved by whole pixels rasterises to
    the same images moved by as much. Texts are placed at whole pixels (at most half a
    pixel from where matplotlib would put them: at lecture density, 1/400 inch), so that
    a name met before anywhere (a leaf's name under another tree) is drawn from its kept
    glyphs.
    """
    if getattr(renderer, "_pe_keeps_glyphs", False) or not hasattr(renderer, "_renderer"):
        return
    import matplotlib as mpl

    draw_text = renderer.draw_text

    def cached_draw_text(gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if ismath:
            return draw_text(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)
        x, y = ix, iy = round(x), round(y)
        key = (s, hash(prop), float(angle), renderer.dpi,
               bool(gc.get_antialiased()), mpl.rcParams["text.hinting"],
               mpl.rcParams["text.hinting_factor"],
               getattr(mtext, "get_fontfeatures", lambda: None)(),
               getattr(mtext, "get_language", lambda: None)())
        glyphs = _GLYPHS.get(key)
        if glyphs is None:
            calls = _text_glyphs(renderer, gc, x, y, s, prop, angle, mtext)
            if calls is None:
                recorder = _GlyphRecorder(renderer._renderer)
                renderer._renderer = recorder
                try:
                    draw_text(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)
                finally:
                    renderer._renderer = recorder.core
                if not recorder.cacheable:
                    return None
                calls = recorder.glyphs
                drawn = True
            else:
                drawn = False
            if len(_GLYPHS) >= _GLYPHS_MAX:
                _GLYPHS.clear()
            glyphs = _GLYPHS[key] = [(image, gx - ix, gy - iy, ga)
                                     for image, gx, gy, ga in calls]
            if drawn:
                return None
        core = renderer._renderer
        for image, gx, gy, ga in glyphs:
            core.draw_text_image(image, gx + ix, gy + iy, ga, gc)
        return None

    renderer.draw_text = cached_draw_text
    renderer._pe_keeps_glyphs = True


#: Text layouts (each line's offset from the text's place), by string, font, angle,
#: alignment and density (see :class:`TextGroup`); emptied when full.
_LAYOUTS: dict = {}
_LAYOUTS_MAX = 4000


class TextGroup:
    """Texts redrawn together as one declared artist of :class:`FigureLayers` (the leaf
    names under a dendrogram): drawn as ``Text.draw`` draws them, with one graphics
    context for all, and each layout kept by string, font, angle and alignment: a name
    met before is not laid out again (30 names: 6.5 ms drawn one by one, 1.5 ms here).

    Texts with a box, path effects, TeX, mathematics, several lines, a clip or an
    alpha of their own are drawn by their own ``draw``.
    """

    axes = None                      # inside other artists (an axis): hidden, not animated

    def __init__(self, texts):
        self.texts = [t for t in texts if t.get_text()]
        self._hidden: list = []

    def set_animated(self, animated: bool) -> None:
        pass

    def get_visible(self) -> bool:
        return any(t.get_visible() for t in self.texts)

    def set_visible(self, visible: bool) -> None:
        """Hide the shown texts (while the kept layer is drawn), or show them again."""
        if not visible:
            self._hidden = [t for t in self.texts if t.get_visible()]
        for t in self._hidden:
            t.set_visible(visible)

    @staticmethod
    def _plain(text) -> bool:
        return (text.get_bbox_patch() is None and not text.get_path_effects()
                and not text.get_usetex() and "$" not in text.get_text()
                and "\n" not in text.get_text() and text.get_alpha() is None
                and text.get_url() is None and not text.get_wrap()
                and (not text.get_clip_on() or (text.get_clip_box() is None
                                                and text.get_clip_path() is None)))

    def draw(self, renderer) -> None:
        from matplotlib.colors import to_rgba

        height = renderer.get_canvas_width_height()[1] if renderer.flipy() else None
        gc, color = renderer.new_gc(), None
        try:
            for text in self.texts:
                if not text.get_visible():
                    continue
                if not self._plain(text):
                    text.draw(renderer)
                    continue
                prop, angle = text.get_fontproperties(), text.get_rotation()
                key = (text.get_text(), hash(prop), angle, text.get_horizontalalignment(),
                       text.get_verticalalignment(), text.get_rotation_mode(),
                       text.get_linespacing(), renderer.dpi, type(renderer))
                info = _LAYOUTS.get(key)
                if info is None:
                    if len(_LAYOUTS) >= _LAYOUTS_MAX:
                        _LAYOUTS.clear()
                    info = _LAYOUTS[key] = text._get_layout(renderer)[1]
                x, y = text.get_transform().transform(text.get_unitless_position())
                if not (np.isfinite(x) and np.isfinite(y)):
                    continue
                rgba = to_rgba(text.get_color())
                if rgba != color:
                    color = rgba
                    gc.set_foreground(rgba, isRGBA=True)
                gc.set_antialiased(text.get_antialiased())
                gc.set_snap(text.get_snap())
                for line, _, (dx, dy) in info:
                    renderer.draw_text(gc, x + dx, y + dy if height is None
                                       else height - (y + dy), line, prop, angle,
                                       ismath=False, mtext=text)
                text.stale = False
        finally:
            gc.restore()


def _same_key(a: tuple | None, b: tuple) -> bool:
    plain = (str, int, float, type(None))
    return a is not None and len(a) == len(b) and all(
        x == y if isinstance(x, plain) and isinstance(y, plain) else x is y
        for x, y in zip(a, b))


def _attached(artist, fig) -> bool:
    """Whether ``artist`` is still drawn as part of ``fig`` (not removed or replaced)."""
    ax = getattr(artist, "axes", None)
    if ax is None or ax is artist:
        return artist in fig.get_children()
    return artist in ax.get_children()


class FigureLayers:
    """Which artists of a figure change from one update to the next, and the pixels of
    the rest (a model owns one; its ``redraw`` calls :meth:`declare`).

    :meth:`png` draws everything but the changing artists once per ``key`` and keeps
    those pixels; later calls with an equal key restore them and draw only the
    changing artists on top. Without a declaration for the figure it is drawn in full.
    """

    def __init__(self):
        self.figure = None        # the figure the declaration is about
        self.key: tuple | None = None
        self.dynamic: list = []
        self.stale = True         # the kept pixels must be drawn again
        self._pixels = None       # (key, saved region, renderer) of the last full draw

    def declare(self, fig, key: tuple, dynamic) -> None:
        """The artists of ``fig`` that changed (drawn on top, in the order given).

        Keys are tuples compared element by element, by value for str, int, float and
        None, by identity for anything else (a cached array, a tree): whatever else a
        ``redraw`` changes must change ``key``.
        """
        dynamic = list(dynamic)
        keep = {id(a) for a in dynamic}
        if fig is not self.figure:
            self.figure, self.dynamic, self._pixels = fig, [], None
        for artist in self.dynamic:
            if id(artist) not in keep and _attached(artist, fig):
                artist.set_animated(False)           # back in the kept layer,
                self.stale = True                    # which must be drawn again
        for artist in dynamic:
            artist.set_animated(True)
        self.key, self.dynamic = tuple(key), dynamic

    def draws_all(self, fig) -> bool:
        """Whether :meth:`png` will draw the whole of ``fig`` (nothing kept to reuse)."""
        kept = self._pixels
        return (fig is not self.figure or self.stale or kept is None
                or kept[2] is not _agg_canvas(fig).get_renderer()
                or not _same_key(kept[0], self.key))

    def png(self, fig) -> bytes:
        """``fig`` as PNG bytes, drawing only the declared artists when the key allows."""
        canvas = _agg_canvas(fig)
        renderer = canvas.get_renderer()
        keep_glyphs(renderer)
        if fig is not self.figure:                   # a new figure: nothing declared yet
            canvas.draw()
            return encode_png(np.asarray(canvas.buffer_rgba()))
        if self.draws_all(fig):
            # everything but the dynamic artists: the Axes or Figure holding one leaves it
            # out (it is animated); one inside another artist (a tick's label) is hidden
            shown = [a for a in self.dynamic if a.get_visible() and not _attached(a, fig)]
            for artist in shown:
                artist.set_visible(False)
            try:
                canvas.draw()
            finally:
                for artist in shown:
                    artist.set_visible(True)
            self._pixels = (self.key, canvas.copy_from_bbox(fig.bbox), renderer)
            self.stale = False
        else:
            canvas.restore_region(self._pixels[1])
        for ax in dict.fromkeys(a.axes for a in self.dynamic if a.axes is not None):
            ax.get_xlim()                            # what Axes.draw would do first: a
            ax.apply_aspect()                        # pending autoscale, then the aspect
        for artist in self.dynamic:
            artist.draw(renderer)
        return encode_png(np.asarray(canvas.buffer_rgba()))
