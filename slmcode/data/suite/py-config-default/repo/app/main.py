from app.settings import Settings


def greeting(settings: Settings) -> str:
    name = settings.get("name", "world")
    return f"hello {name}"
