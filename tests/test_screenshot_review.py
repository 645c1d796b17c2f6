"""The reviewed screenshots' comparison and review, without a browser: a picture within the
tolerance passes, a changed one fails with a page showing the reviewed picture, the new one and
their difference side by side, and ``tests/review_screenshots.py`` accepts or keeps each one, as
``pin`` and ``drift`` do for answers."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
import reader_support
import review_screenshots
from PIL import Image, ImageDraw
from reader_support import CHANGED_SHARE, compare, compress


def _picture(marks: int = 0, size: tuple[int, int] = (200, 100)) -> bytes:
    """A screen-like picture: text-like stripes, with ``marks`` pixels changed at its corner."""
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    for y in range(10, size[1], 20):
        draw.rectangle((10, y, size[0] - 10, y + 6), fill=(30, 30, 120))
    for index in range(marks):
        image.putpixel((index % size[0], size[1] - 1 - index // size[0]), (220, 0, 0))
    out = io.BytesIO()
    image.save(out, "PNG")
    return compress(out.getvalue())


@pytest.fixture
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    baselines, candidates = tmp_path / "baselines", tmp_path / "artefacts" / "screenshots"
    baselines.mkdir()
    for module in (reader_support, review_screenshots):
        monkeypatch.setattr(module, "BASELINES", baselines)
        monkeypatch.setattr(module, "CANDIDATES", candidates)
    return baselines, candidates


def test_a_picture_within_the_tolerance_passes(folders: tuple[Path, Path]) -> None:
    baselines, candidates = folders
    (baselines / "home-desktop-light.png").write_bytes(_picture())
    assert compare("home-desktop-light", _picture()) is None
    within = int(200 * 100 * CHANGED_SHARE)  # pixels: at the tolerance, not past it
    assert compare("home-desktop-light", _picture(marks=within)) is None
    assert not candidates.exists()


def test_a_changed_picture_fails_with_old_new_and_diff_on_one_page(
    folders: tuple[Path, Path],
) -> None:
    baselines, candidates = folders
    (baselines / "home-desktop-light.png").write_bytes(_picture())
    past = int(200 * 100 * CHANGED_SHARE) + 20
    difference = compare("home-desktop-light", _picture(marks=past))
    assert difference is not None and difference.share is not None
    assert difference.share > CHANGED_SHARE
    assert difference.page == candidates / "home-desktop-light.html"
    assert str(difference.page) in difference.line()
    page = difference.page.read_text(encoding="utf-8")
    for suffix in ("old", "new", "diff"):
        assert f'src="home-desktop-light.{suffix}.png"' in page
        assert (candidates / f"home-desktop-light.{suffix}.png").is_file()
    assert "make screenshots-review" in page


def test_a_picture_of_another_size_or_without_a_baseline_fails(
    folders: tuple[Path, Path],
) -> None:
    baselines, candidates = folders
    (baselines / "home-phone-dark.png").write_bytes(_picture())
    resized = compare("home-phone-dark", _picture(size=(200, 120)))
    assert resized is not None and resized.share == 1.0
    new = compare("play-dealt-phone-dark", _picture())
    assert new is not None and new.share is None
    assert "has no reviewed screenshot yet" in new.line()
    assert not (candidates / "play-dealt-phone-dark.old.png").exists()


def test_review_lists_then_accepts_or_keeps_each_picture(
    folders: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    baselines, candidates = folders
    old = _picture()
    for name in ("a-desktop-light", "b-desktop-light"):
        (baselines / f"{name}.png").write_bytes(old)
        assert compare(name, _picture(marks=400)) is not None
    assert review_screenshots.main(["--list"]) == 0
    listed = capsys.readouterr().out
    assert "[1/2] a-desktop-light: changed" in listed and "[2/2] b-desktop-light" in listed
    assert (baselines / "a-desktop-light.png").read_bytes() == old

    answers = iter(["a", "k"])
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    assert review_screenshots.main([]) == 0
    assert (baselines / "a-desktop-light.png").read_bytes() == _picture(marks=400)
    assert (baselines / "b-desktop-light.png").read_bytes() == old
    assert list(candidates.iterdir()) == []


def test_review_accepts_all_only_when_asked(
    folders: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    baselines, _ = folders
    assert compare("c-tablet-dark", _picture()) is not None
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    assert review_screenshots.main([]) == 2  # no terminal: nothing accepted unasked
    assert not (baselines / "c-tablet-dark.png").exists()
    assert review_screenshots.main(["--accept-all"]) == 0
    assert (baselines / "c-tablet-dark.png").read_bytes() == _picture()
