from contacts.export import export
from contacts.model import Contact


def test_a_name_with_a_comma_is_quoted() -> None:
    assert export([Contact("Lovelace, Ada", "ada@x")]).splitlines()[1] == '"Lovelace, Ada",ada@x'
