from bank.account import Account


def test_deposit() -> None:
    a = Account("ada")
    a.deposit(5)
    assert a.balance == 5
