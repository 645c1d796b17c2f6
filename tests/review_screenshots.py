"""Review the screenshots a run of the reader tests found changed: accept each new picture as the
reviewed one, or keep the old, page by page (as ``pin`` and ``drift`` do for answers).

    make screenshots          # take every picture again; leave the changed ones for review
    make screenshots-review   # show each changed one (its diff page) and accept or keep it

``--list`` only lists them; ``--accept-all`` accepts every one (for a change reviewed in the
diff pages already, or the first pictures of a new kind of page).
"""

from __future__ import annotations

import argparse
import shutil
import sys

from reader_support import BASELINES, CANDIDATES, baseline_path, pending


def _forget(name: str) -> None:
    for suffix in ("new.png", "old.png", "diff.png", "html"):
        (CANDIDATES / f"{name}.{suffix}").unlink(missing_ok=True)


def accept(name: str) -> None:
    """Make the new picture the reviewed one."""
    BASELINES.mkdir(parents=True, exist_ok=True)
    shutil.copy(CANDIDATES / f"{name}.new.png", baseline_path(name))
    _forget(name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--list", action="store_true", help="only list the changed pictures")
    group.add_argument("--accept-all", action="store_true", help="accept every changed picture")
    args = parser.parse_args(argv)
    waiting = list(pending())
    if not waiting:
        print(f"no changed screenshots wait for review in {CANDIDATES}")
        return 0
    for index, (name, _) in enumerate(waiting, 1):
        page = CANDIDATES / f"{name}.html"
        had = baseline_path(name).is_file()
        print(f"[{index}/{len(waiting)}] {name}: {'changed' if had else 'new'}; see {page}")
        if args.list:
            continue
        if args.accept_all:
            accept(name)
            print("  accepted")
            continue
        if not sys.stdin.isatty():
            print("no terminal to ask in: use --list, or --accept-all once the pages are read")
            return 2
        while True:
            answer = input("  [a]ccept the new picture, [k]eep the old one, [s]kip, [q]uit? ")
            choice = answer.strip().lower()[:1]
            if choice in ("a", "k", "s", "q"):
                break
        if choice == "a":
            accept(name)
        elif choice == "k":
            _forget(name)
        elif choice == "q":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
