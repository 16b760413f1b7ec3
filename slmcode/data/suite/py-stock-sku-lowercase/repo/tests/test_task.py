from stockroom.catalog import Catalog, Product


def test_a_code_typed_in_lower_case_is_found() -> None:
    assert Catalog([Product("AB-1001", "Oak shelf", 2490)]).get("ab-1001").name == "Oak shelf"
