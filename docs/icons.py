"""Draw the app's icons (static/img/icons/*.png) from the favicon's mark: a gold star on the
site's ink. Run once, from the project's folder, when the mark changes; the PNGs are
committed (nothing draws them at run time):

    uv run python docs/icons.py

- ``icon-192.png``, ``icon-512.png``: the mark on a rounded ink square (the corners
  transparent), as the favicon (static/img/favicon.svg) draws it;
- ``icon-maskable-512.png``: full bleed (no transparent corner), the star inside the
  central circle of 40 % radius that every launcher mask keeps;
- ``apple-touch-icon.png`` (180 px): full bleed too (iOS rounds the corners itself).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

INK = "#2b2118"  # --ink in static/css/app.css: the header, the manifest's theme_color
GOLD = "#c8892f"  # the favicon's star
# The favicon's star, in its 32 by 32 box (static/img/favicon.svg's path).
STAR = [
    (16, 5),
    (19.1, 12.2),
    (27, 12.9),
    (21, 18.1),
    (22.8, 25.8),
    (16, 21.8),
    (9.2, 25.8),
    (11, 18.1),
    (5, 12.9),
    (12.9, 12.2),
]
OUT = Path(__file__).resolve().parents[1] / "static" / "img" / "icons"
SUPER = 4  # drawn this many times larger, then scaled down: smooth edges


def draw(size: int, *, rounded: bool, star_scale: float) -> Image.Image:
    big = size * SUPER
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    if rounded:
        pen.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 6 // 32, fill=INK)
    else:
        pen.rectangle((0, 0, big, big), fill=INK)
    # The star's own centre (16, 15.4 in the favicon's box) on the icon's centre.
    unit = big / 32 * star_scale
    points = [(big / 2 + (x - 16) * unit, big / 2 + (y - 15.4) * unit) for x, y in STAR]
    pen.polygon(points, fill=GOLD)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    draw(192, rounded=True, star_scale=1.0).save(OUT / "icon-192.png", optimize=True)
    draw(512, rounded=True, star_scale=1.0).save(OUT / "icon-512.png", optimize=True)
    # The star reaches 11 of 32 units from the centre at scale 1: 0.72 keeps it within
    # the safe circle (40 % of the width from the centre).
    maskable = draw(512, rounded=False, star_scale=0.72).convert("RGB")
    maskable.save(OUT / "icon-maskable-512.png", optimize=True)
    touch = draw(180, rounded=False, star_scale=0.85).convert("RGB")
    touch.save(OUT / "apple-touch-icon.png", optimize=True)


if __name__ == "__main__":
    main()
