"""The package's build, beside pyproject.toml (which says the rest): each language's message
catalogue (``dealer/words/locale/<language>/LC_MESSAGES/dealer.po``) compiled to the
``dealer.mo`` the app reads before the package's files are gathered, so that a wheel, editable
or not, ships the compiled catalogues (they are not in git)."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

LOCALES = Path(__file__).resolve().parent / "dealer" / "words" / "locale"


class BuildWithCatalogues(build_py):
    """`build_py`, the catalogues compiled first (Babel, a requirement of the build)."""

    def run(self) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(LOCALES.glob("*/LC_MESSAGES/dealer.po")):
            with po.open("rb") as source:
                catalogue = read_po(source, locale=po.parent.parent.name)
            with po.with_suffix(".mo").open("wb") as compiled:
                write_mo(compiled, catalogue)
        super().run()


setup(cmdclass={"build_py": BuildWithCatalogues})
