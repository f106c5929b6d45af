"""Bill of materials, generated from the netlist (circuit/board.py): circuit/bom.csv for
revision A, circuit/bom_revb.csv for revision B.

    python -m circuit.bom [--rev b]            # write the BOM of revision A (or B)
    python -m circuit.bom [--rev b] --check    # exit 1 if it is not what the netlist gives

One line per manufacturer part number: quantity, how many of it belong to one cell (the same for
every cell: a test checks that), reference designators, and what it is for. The magnets and the
mechanical parts are not on the PCB; they are listed in docs/hardware.md.
"""

import csv
import io
import sys
from pathlib import Path

from circuit import parts as P

BOM_CSV = Path(__file__).resolve().parent / "bom.csv"
BOM_CSVS = {"A": BOM_CSV, "B": Path(__file__).resolve().parent / "bom_revb.csv"}
COLUMNS = ("item", "qty", "per_cell", "manufacturer", "mpn", "value", "footprint", "refs",
           "description")


def _ref_key(ref):
    i = len(ref)
    while i and ref[i - 1].isdigit():
        i -= 1
    return ref[:i], int(ref[i:] or 0)


def compress_refs(refs):
    """['C1', 'C2', 'C3', 'C5'] -> 'C1-C3 C5'."""
    keys = sorted(_ref_key(r) for r in refs)
    out = []
    i = 0
    while i < len(keys):
        j = i
        while j + 1 < len(keys) and keys[j + 1][0] == keys[i][0] and keys[j + 1][1] == keys[j][1] + 1:
            j += 1
        a = "%s%d" % keys[i]
        out.append(a if j == i else "%s-%s%d" % (a, keys[j][0], keys[j][1]))
        i = j + 1
    return " ".join(out)


def rows(board):
    """BOM rows (dicts with COLUMNS) for a built board."""
    groups = {}
    order = []
    for p in board.circuit.parts:
        spec = P.BY_KEY[p.spec_key]
        if spec.mpn not in groups:
            groups[spec.mpn] = (spec, [])
            order.append(spec.mpn)
        groups[spec.mpn][1].append(p)
    per_cell = per_cell_counts(board)
    out = []
    # Order: parts in the order of the part library (the Pico first), then by MPN.
    lib_order = {s.mpn: i for i, s in enumerate(P.ALL)}
    for n, mpn in enumerate(sorted(order, key=lambda m: (lib_order[m], m))):
        spec, ps = groups[mpn]
        out.append({
            "item": n + 1,
            "qty": len(ps),
            "per_cell": per_cell.get(mpn, 0),
            "manufacturer": spec.manufacturer,
            "mpn": mpn,
            "value": spec.value,
            "footprint": spec.footprint,
            "refs": compress_refs([p.ref for p in ps]),
            "description": P.description(spec, board.revision),
        })
    return out


def per_cell_counts(board):
    """mpn -> number of parts of it that belong to one cell (parts with a `cell` field).
    Raises ValueError if two cells do not have the same parts."""
    cells = {}
    for p in board.circuit.parts:
        cell = p.fields.get("cell")
        if cell:
            mpn = P.BY_KEY[p.spec_key].mpn
            d = cells.setdefault(cell, {})
            d[mpn] = d.get(mpn, 0) + 1
    counts = None
    for cell, d in cells.items():
        if counts is None:
            counts = d
        elif d != counts:
            raise ValueError("cell %s has parts %r, other cells %r" % (cell, d, counts))
    return counts or {}


def render(board):
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows(board):
        w.writerow(r)
    return buf.getvalue()


def main(argv=None):
    from circuit import board as B
    from circuit import cli
    rev, flags = cli.parse(argv, __doc__, flags=("--check",))
    path = BOM_CSVS[rev]
    name = "circuit/" + path.name
    text = render(B.build(revision=rev))
    if "--check" in flags:
        if not path.exists() or path.read_text() != text:
            print("%s is out of date: run `python -m circuit.bom%s`" % (
                name, "" if rev == "A" else " --rev " + rev.lower()))
            return 1
        print("%s matches the netlist" % name)
        return 0
    path.write_text(text)
    print("wrote " + name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
