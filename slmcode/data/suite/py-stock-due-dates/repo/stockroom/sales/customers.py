from dataclasses import dataclass


@dataclass
class Customer:
    id: str
    name: str
    region: str = "DE"
    email: str = ""
