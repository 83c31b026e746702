"""The maps of one turn alone: every reader's view recorded from a campaign's turn, then drawn again and timed.

    python benchmarks/maps_drawn.py record DIR VIEWS        (DIR: e.g. generate.py star_sectors DIR --factions 40)
    python benchmarks/maps_drawn.py draw VIEWS [--code TREE] [--repeat 3] [--out FOLDER]

``record`` runs a copy of DIR (pass 1, the GM's answers by ``generate.answer_gm_input``, pass 2 in one
process) and keeps what every reader's map shows (the views and the language each is drawn in, pickled, in
the order the turn draws them: ``TurnPictures.drawn``) with the SHA-256 of each picture the turn drew. ``draw``
draws those views again in one process as the turn does (the shared figure made first, then each reader's
map), with the code of TREE (default: this checkout), and prints the CPU seconds of each repeat
(``resource.getrusage``), the load average, and the SHA-256 of every PNG and SVG and of them all, so that
two trees can be compared side by side (same views, same bytes?). ``--out`` writes the pictures there.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import resource
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cpu_time() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def record(campaign: Path, views: Path) -> None:
    sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]
    os.environ["ADJUDICATOR_WORKERS"] = "1"
    from generate import answer_gm_input

    from adjudicator.outputs.maps import turn
    from adjudicator.turn import pipeline

    kept: dict[str, list] = {"maps": [], "digests": []}
    real = turn.TurnPictures.drawn

    def recording(pictures: turn.TurnPictures, reader: str) -> object:
        drawn = real(pictures, reader)
        if drawn is not None:
            kept["maps"].append((drawn.view, pictures.views[reader][1]))
            kept["digests"].append((hashlib.sha256(drawn.picture.png).hexdigest(),
                                    hashlib.sha256(drawn.picture.svg).hexdigest()))
        return drawn

    turn.TurnPictures.drawn = recording  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "campaign"
        shutil.copytree(campaign, root)
        pipeline.run(root)
        answer_gm_input(root)
        for found in kept.values():  # the maps of the resolved turn alone
            found.clear()
        pipeline.run(root)
    views.write_bytes(pickle.dumps(kept))
    print(f"{len(kept['maps'])} views in {views}")  # type: ignore[arg-type]


def draw(views: Path, code: Path, repeat: int, out: Path | None) -> None:
    sys.path.insert(0, str(code))
    import matplotlib

    from adjudicator.outputs.maps import draw as drawing

    kept = pickle.loads(views.read_bytes())  # noqa: S301 - a file this script wrote
    maps = kept["maps"]
    matplotlib.rc_context  # noqa: B018 - matplotlib imported before the clock starts
    load = [round(os.getloadavg()[0], 2)]
    seconds = []
    for _ in range(repeat):
        drawing.SharedGrid._last = None  # noqa: SLF001 - each repeat makes its shared figure again, as a turn does
        start = cpu_time()
        drawing.SharedGrid.of(maps[0][0])
        pictures = [drawing.render_many([m])[0] for m in maps]
        seconds.append(round(cpu_time() - start, 3))
    load.append(round(os.getloadavg()[0], 2))
    digests = [(hashlib.sha256(p.png).hexdigest(), hashlib.sha256(p.svg).hexdigest()) for p in pictures]
    whole = hashlib.sha256("".join(a + b for a, b in digests).encode()).hexdigest()
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        for i, ((view, _), picture) in enumerate(zip(maps, pictures, strict=True)):
            stem = f"{i:02d}-{view.reader.strip('#')}"
            (out / f"{stem}.png").write_bytes(picture.png)
            (out / f"{stem}.svg").write_bytes(picture.svg)
    print(json.dumps({"code": str(code), "maps": len(maps), "cpu_s": seconds, "load_average": load,
                      "png_bytes": sum(len(p.png) for p in pictures), "svg_bytes": sum(len(p.svg) for p in pictures),
                      "sha256_all": whole, "as_recorded": digests == kept.get("digests")}, indent=2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("dir", type=Path)
    rec.add_argument("views", type=Path)
    dra = sub.add_parser("draw")
    dra.add_argument("views", type=Path)
    dra.add_argument("--code", type=Path, default=ROOT)
    dra.add_argument("--repeat", type=int, default=3)
    dra.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.command == "record":
        record(args.dir, args.views)
    else:
        draw(args.views, args.code.resolve(), args.repeat, args.out)


if __name__ == "__main__":
    main()
