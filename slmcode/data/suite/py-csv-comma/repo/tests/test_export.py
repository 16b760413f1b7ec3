from contacts.export import export
from contacts.model import Contact


def test_plain() -> None:
    assert export([Contact("ada", "a@x")]) == "name,email\nada,a@x\n"
