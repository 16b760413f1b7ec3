class InsufficientFunds(Exception):
    """A withdrawal larger than the balance."""
