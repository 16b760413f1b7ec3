from stockroom.inventory.valuation import FifoLedger


def test_fifo_sells_oldest_first() -> None:
    ledger = FifoLedger()
    ledger.buy("AB-1001", 2, 100)
    ledger.buy("AB-1001", 2, 150)
    assert ledger.sell("AB-1001", 3) == 350
    assert ledger.value() == 150
