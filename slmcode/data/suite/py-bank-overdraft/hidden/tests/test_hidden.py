import pytest

from bank.account import Account
from bank.errors import InsufficientFunds


def test_overdraft_refused() -> None:
    a = Account("ada", 10)
    with pytest.raises(InsufficientFunds):
        a.withdraw(11)
    assert a.balance == 10


def test_exact_balance_allowed() -> None:
    a = Account("ada", 10)
    a.withdraw(10)
    assert a.balance == 0
