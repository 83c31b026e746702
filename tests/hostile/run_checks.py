"""Run ``adjudicator check`` on files, each in its own process under hard resource limits.

``python -m tests.hostile.run_checks CAMPAIGN OUT FILE[,FILE…]…`` imports the command line once, then
forks one child per argument; the child sets its limits (address space and CPU time), sends its
output to ``OUT/NAME.out``, and runs the real ``check`` command on that campaign and those files.
The parent prints, as JSON, each child's exit status, the signal that killed it (a native crash, a
limit passed), its peak memory and its CPU time, as the kernel measured them (``wait4``), and its wall-clock time.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from pathlib import Path

#: A runaway (the 512 GiB grid of one cell at XFD1048576, the 2.5 GB of 200,000 rows) is stopped here.
ADDRESS_SPACE = 3 * 2**30
CPU_SECONDS = 10


def run_one(campaign: str, files: list[str], out: Path) -> dict[str, object]:
    from adjudicator.cli import main

    started = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child
        code = 70
        try:
            resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
            resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            handle = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(handle, 1)
            os.dup2(handle, 2)
            try:
                main(["check", campaign, *files], prog_name="adjudicator")
                code = 0
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    _, status, usage = os.wait4(pid, 0)
    return {
        "exit": os.waitstatus_to_exitcode(status),
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        "max_rss_mb": usage.ru_maxrss / 1024,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "wall_s": time.monotonic() - started,
    }


def main() -> None:
    campaign, out, *groups = sys.argv[1:]
    import adjudicator.cli  # noqa: F401 - imported once, before the children are forked

    results = {}
    for group in groups:
        files = group.split(",")
        results[Path(files[0]).name] = run_one(campaign, files, Path(out) / (Path(files[0]).name + ".out"))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
