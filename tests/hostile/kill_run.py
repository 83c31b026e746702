"""Kill ``adjudicator run`` at chosen points, run the next command, and compare with an uninterrupted run.

``python -m tests.hostile.kill_run CAMPAIGN WORK SEED COUNT`` copies the campaign folder for each
point. A child process (forked after the import) runs the real ``run`` command and sends itself
SIGKILL at the Nth file-system step it takes: creating, writing a zip member of, syncing, renaming,
linking or deleting a file, copying one, making or removing a folder. Which steps are hit is drawn
from SEED among all the steps an uninterrupted run takes. Then ``run`` is started again (the next
command a GM would give) and the folder is compared, file by file, with a folder where nothing was
interrupted and the same two commands were given. The result is printed as JSON.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import sys
import zipfile
from pathlib import Path

STEPS = ("replace", "rename", "link", "unlink", "remove", "rmdir", "mkdir", "fsync")


def _instrument(kill_at: int | None, counter: list[int]) -> None:
    def counted(function):  # noqa: ANN001, ANN202 - wraps anything
        def step(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            counter[0] += 1
            if kill_at is not None and counter[0] >= kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            return function(*args, **kwargs)

        return step

    for name in STEPS:
        setattr(os, name, counted(getattr(os, name)))
    shutil.copyfile = counted(shutil.copyfile)
    zipfile.ZipFile.writestr = counted(zipfile.ZipFile.writestr)


def command(folder: Path, kill_at: int | None = None) -> tuple[int | None, int | None, int]:
    """``run FOLDER`` in a child: (exit status, killing signal, steps taken)."""
    from adjudicator.cli import main

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        counter = [0]
        code = 70
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            _instrument(kill_at, counter)
            try:
                main(["run", str(folder)], prog_name="adjudicator")
                code = 0
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else 1
        finally:
            os.write(write, str(counter[0]).encode())
            os._exit(code)
    os.close(write)
    _, status = os.waitpid(pid, 0)
    steps = os.read(read, 64).decode() or "0"
    os.close(read)
    if os.WIFSIGNALED(status):
        return None, os.WTERMSIG(status), int(steps)
    return os.waitstatus_to_exitcode(status), None, int(steps)


def digest(root: Path) -> dict[str, str]:
    """Every file with its SHA-256, the folders recovery sets aside for the GM (``interrupted-N``) apart."""
    out = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if path.is_file() and not any(part.startswith("interrupted-") for part in relative.parts):
            out[str(relative)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def leftovers(root: Path) -> list[str]:
    """Temporary files, staging folders and locks: nothing of them may outlive the next command."""
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")
                  if p.name.endswith(".tmp") or ".staging-" in p.name or p.name.startswith(".adjudicator.lock")
                  or p.name == ".adjudicator-commit.json")


def main() -> None:
    pristine, work, seed, count = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    import adjudicator.cli  # noqa: F401 - imported once, before the children are forked

    reference = work / "reference"
    shutil.copytree(pristine, reference)
    first, _, steps = command(reference)
    second, _, _ = command(reference)
    expected = digest(reference)
    points = sorted(random.Random(seed).sample(range(1, steps + 1), min(count, steps)))
    results = []
    for point in points:
        folder = work / f"kill-{point}"
        shutil.copytree(pristine, folder)
        _, killed, _ = command(folder, kill_at=point)
        after, crashed, _ = command(folder)
        got = digest(folder)
        results.append({
            "point": point,
            "killed": killed,
            "next_exit": after,
            "next_signal": crashed,
            "leftovers": leftovers(folder),
            "differ": sorted(k for k in set(got) | set(expected) if got.get(k) != expected.get(k)),
        })
        shutil.rmtree(folder)
    print(json.dumps({"steps": steps, "reference_exits": [first, second], "results": results}))


if __name__ == "__main__":
    main()
