"""Which dashboard words a language still lacks: the keys English has and another language's
catalogues do not (and the keys left over in it that English no longer has), file by file.

    python tools/i18n_missing.py             # every language against English
    python tools/i18n_missing.py ja          # Japanese alone
    python tools/i18n_missing.py ja --json   # the missing keys with their English text, as JSON
                                             # ({"common.json": {key: text}}), to translate and merge

English is the reference: a key is added to en/<part>.json first, and each other language gets
its translation in the file of the same name (the page merges a language's files, and falls back
to English for a file it cannot fetch; tests/test_i18n_catalogues.py insists that every language
has every key). Exit status 1 when some key is missing or left over, 0 when all agree, 2 for a
language with no folder.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

I18N = Path(__file__).resolve().parents[1] / "companion" / "server" / "static" / "i18n"
REFERENCE = "en"


def catalogue(lang: str, root: Path = I18N) -> dict[str, dict]:
    """file name -> its keys and texts, for one language."""
    return {path.name: json.loads(path.read_text(encoding="utf-8")) for path in sorted((root / lang).glob("*.json"))}


def differences(lang: str, root: Path = I18N) -> dict[str, dict[str, list[str]]]:
    """file name -> {"missing": keys English has and lang lacks, "extra": the other way round};
    files that agree are left out. Keys are in English's order (where a translator reads them)."""
    reference, other = catalogue(REFERENCE, root), catalogue(lang, root)
    out: dict[str, dict[str, list[str]]] = {}
    for name in sorted(set(reference) | set(other)):
        en, theirs = reference.get(name, {}), other.get(name, {})
        missing = [k for k in en if k not in theirs]
        extra = [k for k in theirs if k not in en]
        if missing or extra:
            out[name] = {"missing": missing, "extra": extra}
    return out


def languages(root: Path = I18N) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.is_dir() and p.name != REFERENCE)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("langs", nargs="*", help=f"languages to check (default: all but {REFERENCE})")
    parser.add_argument("--json", action="store_true",
                        help="print the missing keys with their English text as JSON, nothing else")
    parser.add_argument("--root", type=Path, default=I18N, help="the catalogues' folder (default: the dashboard's)")
    args = parser.parse_args(argv)
    root = args.root
    langs = args.langs or languages(root)
    unknown = [lang for lang in langs if not (root / lang).is_dir()]
    if unknown:
        print(f"no catalogues for {', '.join(unknown)}: the languages are {', '.join(languages(root))} "
              f"(folders of {root})", file=sys.stderr)
        return 2
    reference = catalogue(REFERENCE, root)
    found = {lang: differences(lang, root) for lang in langs}
    if args.json:
        todo = {lang: {name: {k: reference[name][k] for k in diff["missing"]}
                       for name, diff in files.items() if diff["missing"]} for lang, files in found.items()}
        json.dump(todo if len(langs) > 1 else todo[langs[0]], sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        for lang, files in found.items():
            if not files:
                print(f"{lang}: every key of {REFERENCE} is there")
                continue
            for name, diff in files.items():
                for key in diff["missing"]:
                    english = json.dumps(reference[name][key], ensure_ascii=False)
                    print(f"{lang}/{name}: missing {key!r} ({REFERENCE}: {english})")
                for key in diff["extra"]:
                    print(f"{lang}/{name}: not in {REFERENCE} {key!r} (remove it, or add it to {REFERENCE}/{name})")
    return 1 if any(found.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
