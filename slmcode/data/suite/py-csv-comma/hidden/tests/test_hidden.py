import csv
import io

from contacts.export import export
from contacts.model import Contact


def test_comma_is_quoted() -> None:
    text = export([Contact("Lovelace, Ada", "ada@x")])
    assert list(csv.reader(io.StringIO(text)))[1] == ["Lovelace, Ada", "ada@x"]


def test_quote_is_doubled() -> None:
    text = export([Contact('Ada "the first"', "ada@x")])
    assert text.splitlines()[1] == '"Ada ""the first""",ada@x'


def test_plain_stays_plain() -> None:
    assert export([Contact("ada", "a@x")]) == "name,email\nada,a@x\n"
