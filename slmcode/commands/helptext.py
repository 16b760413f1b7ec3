"""Help that reads as words: `--model MODEL`, `--workspace PATH`, a flag with no tag, `run TASK`.

Typer (0.29) prints each option's Python type in the help (`<str>`, `<bool>`, `<int>`; older releases printed
TEXT, INTEGER) and the usage line as `run [OPTIONS] {task}`. A newcomer reads `--yes <bool>` as an option that
wants a value. Typer offers no app-wide setting for this, so `clean_help_types()` replaces the two methods that
write the tag, once, before the app prints anything. An option that sets its own metavar keeps it.
"""

from __future__ import annotations

from typer import core

# A value's kind when its name says nothing about it.
_KIND_WORDS = {int: "N", float: "NUMBER"}


def _option_word(param: core.TyperOption) -> str | None:
    """The word after an option: nothing for a flag, the choices, PATH/N, else the option's own name."""
    if param.metavar is not None:
        return param.metavar
    if param.is_flag or param.count:
        return None
    desc = param.type_descriptor
    if desc.is_choice:
        return "|".join(str(choice) for choice in desc.choices or ())
    word = "PATH" if desc.is_path else _KIND_WORDS.get(desc.annotation) or (param.name or "value").upper()
    return f"{word}..." if param.nargs != 1 or desc.is_list else word


def _argument_type(param: core.TyperArgument) -> str | None:
    """An argument's name already says what it is (TASK, RUN): no type column."""
    return None


def _argument_usage(param: core.TyperArgument) -> str:
    """`run TASK`, `board [RUN]`: upper case as in every Unix usage line, brackets only when optional."""
    name = (param.metavar or param.name or "arg").upper()
    name = name if param.required else f"[{name}]"
    return f"{name}..." if param.nargs != 1 else name


def clean_help_types() -> None:
    """Install the readable help once; calling it again changes nothing."""
    # typer has no hook for these words: its methods are replaced in place, which mypy rightly flags.
    core.TyperOption.display_type_rich = lambda self, ctx: _option_word(self)  # type: ignore[method-assign]
    core.TyperArgument.display_type_rich = lambda self, ctx: _argument_type(self)  # type: ignore[method-assign,arg-type]
    core.TyperArgument.display_name_raw = property(  # type: ignore[method-assign,assignment]
        lambda self: (self.metavar or self.name or "arg").upper()
    )
    core.TyperArgument._usage_display_name = _argument_usage  # type: ignore[method-assign,assignment]
