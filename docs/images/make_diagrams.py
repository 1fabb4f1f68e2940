#!/usr/bin/env python3
"""Writes the course site's hand-drawn SVG diagrams (run it after changing them; the SVGs are committed).

  bank_mapping.svg  a warp reading column 0 of float tile[32][32] (one bank, 32-way conflict)
                    and of float tile[32][33] (padding: 32 different banks)
  halo_tile.svg     a 2-D thread block's tile in shared memory with its halo of radius R
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
HOT, COLD, HALO, INNER = "#e4572e", "#f3f4f6", "#f6c453", "#76b7e5"


def bank_panel(x0, y0, width, title, rows=8, banks=32, cell=17):
    """Shared memory as rows of 32 four-byte words (one word per bank); a warp reads tile[r][0]."""
    out = [f'<text x="{x0}" y="{y0 - 28}" font-size="14" font-weight="bold">{title}</text>']
    for b in range(banks):
        if b % 4 == 0:
            out.append(f'<text x="{x0 + b * cell + cell / 2}" y="{y0 - 8}" font-size="9" text-anchor="middle">{b}</text>')
    for word in range(rows * banks):
        r, b = divmod(word, banks)
        row_of_tile, col = divmod(word, width)
        hot = col == 0 and row_of_tile < rows
        pad = col == 32
        fill = HOT if hot else ("#d0d0d0" if pad else COLD)
        out.append(f'<rect x="{x0 + b * cell}" y="{y0 + r * cell}" width="{cell}" height="{cell}" '
                   f'fill="{fill}" stroke="#999" stroke-width="0.5"/>')
        if hot:
            out.append(f'<text x="{x0 + b * cell + cell / 2}" y="{y0 + r * cell + 12}" font-size="8" '
                       f'text-anchor="middle" fill="white">{row_of_tile}</text>')
    out.append(f'<text x="{x0 - 6}" y="{y0 + rows * cell / 2}" font-size="10" text-anchor="end">word row</text>')
    return out


def bank_mapping():
    w, h = 680, 470
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
         'font-family="sans-serif">', f'<rect width="{w}" height="{h}" fill="white"/>',
         '<text x="70" y="20" font-size="12">bank = (byte address / 4) mod 32; columns are banks 0..31, '
         'red cells are tile[r][0], r = 0..7</text>']
    s += bank_panel(70, 70, 32, "float tile[32][32]: column 0 lies in bank 0 (32-way conflict)")
    s += bank_panel(70, 290, 33, "float tile[32][33]: one word of padding per row, column 0 spans all banks")
    s.append('<text x="70" y="450" font-size="11">grey: the padding word of each row (never read); '
             'only the first 8 of 32 rows are drawn</text>')
    s.append('</svg>')
    return "\n".join(s)


def halo_tile(n=8, r=2, cell=26):
    size = (n + 2 * r) * cell
    w, h = size + 260, size + 60
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
         'font-family="sans-serif">', f'<rect width="{w}" height="{h}" fill="white"/>']
    x0, y0 = 20, 30
    s.append(f'<text x="{x0}" y="20" font-size="13" font-weight="bold">'
             f'shared tile of ({n} + 2R) x ({n} + 2R) elements, R = {r}</text>')
    for i in range(n + 2 * r):
        for j in range(n + 2 * r):
            inner = r <= i < n + r and r <= j < n + r
            corner = (i < r or i >= n + r) and (j < r or j >= n + r)
            fill = INNER if inner else ("#e8e8e8" if corner else HALO)
            s.append(f'<rect x="{x0 + j * cell}" y="{y0 + i * cell}" width="{cell}" height="{cell}" '
                     f'fill="{fill}" stroke="#777" stroke-width="0.6"/>')
    # A 5-point stencil of radius R centred on one output element near the tile's edge.
    ci, cj = r, r + 3
    for d in range(-r, r + 1):
        for (i, j) in ((ci + d, cj), (ci, cj + d)):
            s.append(f'<circle cx="{x0 + j * cell + cell / 2}" cy="{y0 + i * cell + cell / 2}" r="5" fill="#333"/>')
    s.append(f'<rect x="{x0 + cj * cell}" y="{y0 + ci * cell}" width="{cell}" height="{cell}" fill="none" '
             f'stroke="{HOT}" stroke-width="3"/>')
    lx = x0 + size + 20
    legend = [(INNER, f"{n} x {n} outputs: one per thread"), (HALO, f"halo: R = {r} rows/columns read"),
              ("#e8e8e8", "corners: only for box stencils"), ("white", "")]
    for k, (c, t) in enumerate(legend[:3]):
        s.append(f'<rect x="{lx}" y="{y0 + k * 28}" width="18" height="18" fill="{c}" stroke="#777"/>')
        s.append(f'<text x="{lx + 26}" y="{y0 + k * 28 + 14}" font-size="12">{t}</text>')
    s.append(f'<circle cx="{lx + 9}" cy="{y0 + 3 * 28 + 9}" r="5" fill="#333"/>')
    s.append(f'<text x="{lx + 26}" y="{y0 + 3 * 28 + 14}" font-size="12">inputs of the framed output</text>')
    s.append(f'<text x="{lx}" y="{y0 + 5 * 28}" font-size="12">loaded from global memory once,</text>')
    s.append(f'<text x="{lx}" y="{y0 + 5 * 28 + 16}" font-size="12">read from shared memory by up</text>')
    s.append(f'<text x="{lx}" y="{y0 + 5 * 28 + 32}" font-size="12">to 4R + 1 threads</text>')
    s.append('</svg>')
    return "\n".join(s)


for name, text in (("bank_mapping.svg", bank_mapping()), ("halo_tile.svg", halo_tile())):
    with open(os.path.join(HERE, name), "w") as f:
        f.write(text + "\n")
