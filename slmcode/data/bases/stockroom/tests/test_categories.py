from stockroom.catalog.categories import ancestors, tree, within


def test_ancestors_nearest_first() -> None:
    assert ancestors("garden/seed/lawn") == ["garden/seed", "garden"]


def test_within() -> None:
    assert within("garden/seed", "garden")
    assert not within("gardening", "garden")


def test_tree() -> None:
    assert tree(["garden/seed", "garden/soil"])["garden"] == ["garden/seed", "garden/soil"]
