import pytest

from bank.account import Account
from bank.errors import InsufficientFunds


def test_withdrawing_more_than_the_balance_is_refused() -> None:
    account = Account("ada", 5)
    with pytest.raises(InsufficientFunds):
        account.withdraw(6)
    assert account.balance == 5
