"""Reading the players' own rulebook (a text file or a PDF) into passages with page refs.

``tableside rules import`` indexes the rulebook the players own so that search can quote
it. The text stays on their machine (the rules index in the data directory); nothing of it
is shipped. Pages come from the file itself:

* a PDF: one page per PDF page (text extracted with pypdf);
* a text file: a form feed (``\\f``) starts a new page, and so does a line that is only a
  page marker: ``page 12``, ``p. 12``, ``- 12 -``, ``[12]``, ``=== page 12 ===``
  (the marker names the page that follows); a form feed's page is the one after the page
  before it (the first page is 1 unless a marker names it; after ``page 5``, 6); a file
  with neither has no page numbers.

Within a page, paragraphs are gathered into passages of a few hundred characters; a short
line in capitals or a Markdown ``#`` heading names the section of the passages under it.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

MAX_FILE_BYTES = 50 * 1024 * 1024
PASSAGE_CHARS = 700  # long enough to quote a rule, short enough to read on a phone

_PAGE_MARKER = re.compile(
    r"^\s*(?:=+\s*)?(?:\[\s*(?:page\s*)?(\d{1,4})\s*\]|(?:page|p\.)\s*(\d{1,4})|-\s*(\d{1,4})\s*-)"
    r"(?:\s*=+)?\s*$",
    re.IGNORECASE)
_MD_HEADING = re.compile(r"^\s*#{1,6}\s+(.+?)\s*#*\s*$")
_NUMBERED_LABEL = re.compile(r"^[^\W\d_]+\s+\d+$")


class RulebookError(ValueError):
    """The file cannot be read as a rulebook (missing, empty, unknown type, broken PDF)."""


@dataclass(frozen=True)
class Page:
    number: int | None
    text: str


@dataclass(frozen=True)
class Passage:
    page: int | None
    section: str | None
    text: str


def read_pages(path: Path) -> list[Page]:
    """The pages of a ``.txt``/``.md`` or ``.pdf`` file."""
    path = Path(path)
    if path.is_dir():
        raise RulebookError(f"{path}: a folder, not a rulebook file (.txt or .pdf)")
    if not path.is_file():
        raise RulebookError(f"{path}: no such file")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise RulebookError(f"{path}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        pages = _pdf_pages(path)
    elif suffix in (".txt", ".md", ".text", ""):
        pages = text_pages(_text(path))
    else:
        raise RulebookError(f"{path}: a rulebook must be a .txt or .pdf file")
    if not any(p.text.strip() for p in pages):
        raise RulebookError(f"{path}: no text found (a scanned PDF needs OCR first)")
    return pages


def _text(path: Path) -> str:
    """A text file's text: UTF-8 (with or without a byte-order mark), UTF-16 with its mark
    (Windows Notepad's "Unicode"), else Windows' Western code page, which most older text
    files of a rulebook are in (Latin-1 where it has no character). A file of control
    bytes (a picture or an archive named .txt) is refused rather than indexed."""
    raw = path.read_bytes()
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = raw.decode("utf-16")
        except UnicodeDecodeError:
            raise RulebookError(f"{path}: not readable as the UTF-16 its start says") from None
    else:
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            try:
                text = raw.decode("cp1252")
            except UnicodeDecodeError:
                text = raw.decode("latin-1")
    controls = sum(1 for c in text if c < " " and c not in "\t\n\r\f\v")
    if controls > len(text) // 100:
        raise RulebookError(f"{path}: not a text file (a rulebook must be a .txt or .pdf "
                            "file)")
    return text


def _pdf_pages(path: Path) -> list[Page]:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(path)
        if reader.is_encrypted:
            raise RulebookError(f"{path}: the PDF is encrypted")
        return [Page(i, page.extract_text() or "") for i, page in enumerate(reader.pages, 1)]
    except RulebookError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, AssertionError,
            IndexError, ZeroDivisionError, RecursionError) as exc:
        # pypdf on a damaged file raises whatever its code meets: AttributeError and
        # AssertionError escaped a fuzz of 3,000 damaged copies of a two-page PDF
        raise RulebookError(f"{path}: not a readable PDF ({type(exc).__name__}: "
                            f"{str(exc)[:120]})") from None


def text_pages(text: str) -> list[Page]:
    """Cut a text into pages at form feeds and page-marker lines. A form feed starts the
    page after the one before it: after ``page 5``, the next page is 6 (it used to be
    counted from the feeds alone, as if no marker had named a page)."""
    chunks = text.split("\f")
    has_feeds = len(chunks) > 1
    pages: list[Page] = []
    number: int | None = None
    for index, chunk in enumerate(chunks):
        if has_feeds:
            number = 1 if number is None or index == 0 else number + 1
        lines: list[str] = []
        for line in chunk.splitlines():
            marker = _PAGE_MARKER.match(line)
            if marker:
                if any(s.strip() for s in lines):
                    pages.append(Page(number, "\n".join(lines)))
                lines = []
                number = int(next(g for g in marker.groups() if g))
            else:
                lines.append(line)
        if any(s.strip() for s in lines):
            pages.append(Page(number, "\n".join(lines)))
    return pages


def _heading(line: str) -> str | None:
    md = _MD_HEADING.match(line)
    if md:
        text = md.group(1).strip("*_ ")
        return text.title() if text.isupper() else text
    stripped = line.strip().strip("*_ ")
    if _NUMBERED_LABEL.match(stripped):  # "RULE 12" (SeaFall's sticker boxes), "STEP 2"
        return None
    letters = [c for c in stripped if c.isalpha()]
    if 4 <= len(letters) and len(stripped) <= 60 and all(c.isupper() for c in letters):
        return stripped.title()
    return None


def _paragraphs(text: str) -> Iterator[tuple[str | None, str]]:
    """(heading, paragraph) pairs: a heading line yields (heading, "")."""
    current: list[str] = []
    for line in text.splitlines():
        heading = _heading(line)
        if heading is not None or not line.strip():
            if current:
                yield None, " ".join(current)
                current = []
            if heading is not None:
                yield heading, ""
            continue
        current.append(line.strip())
    if current:
        yield None, " ".join(current)


def split_passages(pages: Iterable[Page], size: int = PASSAGE_CHARS) -> list[Passage]:
    passages: list[Passage] = []
    section: str | None = None  # a section runs on over page breaks
    for page in pages:
        buffer: list[str] = []
        buffer_section = section
        after_heading = False
        for heading, paragraph in _paragraphs(page.text):
            if heading is not None:
                _flush(passages, page.number, buffer_section, buffer)
                if after_heading and section and len(section) + len(heading) < 80:
                    heading = f"{section} {heading}"  # a heading set on several lines
                section = buffer_section = heading
                after_heading = True
                continue
            after_heading = False
            for piece in _pieces(paragraph, size):
                if buffer and sum(len(b) + 1 for b in buffer) + len(piece) > size:
                    _flush(passages, page.number, buffer_section, buffer)
                    buffer_section = section
                buffer.append(piece)
        _flush(passages, page.number, buffer_section, buffer)
    return passages


def _flush(passages: list[Passage], page: int | None, section: str | None,
           buffer: list[str]) -> None:
    text = " ".join(buffer).strip()
    if text:
        passages.append(Passage(page, section, text))
    buffer.clear()


def _pieces(paragraph: str, size: int) -> Iterator[str]:
    """A paragraph, cut at sentence ends when it is longer than a passage."""
    if len(paragraph) <= size:
        yield paragraph
        return
    sentences = re.split(r"(?<=[.!?])\s+", paragraph)
    chunk = ""
    for sentence in sentences:
        while len(sentence) > size:  # one endless "sentence" (a table, an OCR run)
            if chunk:
                yield chunk
                chunk = ""
            cut = sentence.rfind(" ", 0, size)
            cut = cut if cut > size // 2 else size
            yield sentence[:cut].strip()
            sentence = sentence[cut:].strip()
        if chunk and len(chunk) + 1 + len(sentence) > size:
            yield chunk
            chunk = sentence
        else:
            chunk = f"{chunk} {sentence}".strip()
    if chunk:
        yield chunk
