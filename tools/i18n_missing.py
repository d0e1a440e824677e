"""Which dashboard words a language still lacks: the keys English has and another language's
catalogues do not (and the keys left over in it that English no longer has), file by file; and
the translations of those keys put in.

    python tools/i18n_missing.py                    # every language against English
    python tools/i18n_missing.py ja                 # Japanese alone
    python tools/i18n_missing.py ja --json          # its missing keys with their English text, as
                                                    # JSON ({"common.json": {key: text}}) to translate
    python tools/i18n_missing.py ja --merge FILE    # the translated JSON (that shape) put into ja's
                                                    # files, each key where English has it

English is the reference: a key is added to en/<part>.json first, and each other language gets
its translation in the file of the same name (the page merges a language's files, and falls back
to English for a file it cannot fetch; tests/test_i18n_catalogues.py insists that every language
has every key). Exit status 1 when some key is missing or left over, 0 when all agree, 2 for a
language with no folder or a merge refused (a file or key English lacks, a text that is not one,
plural forms where English has none or the other way round: nothing is written then).
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


def merge(lang: str, translations: dict, root: Path = I18N) -> list[str]:
    """Put ``translations`` ({file name: {key: text or plural forms}}) into lang's files, each key
    in English's order (a new file is made); the files written. Raises ValueError, writing
    nothing, for a file or key English lacks or a value of another shape than English's."""
    reference, current = catalogue(REFERENCE, root), catalogue(lang, root)
    if not isinstance(translations, dict):
        raise ValueError('expected {"<file>.json": {"<key>": "<text>"}}')
    wrong = []
    for name, keys in translations.items():
        if name not in reference or not isinstance(keys, dict):
            wrong.append(f"{name}: {REFERENCE} has no such file" if name not in reference
                         else f"{name}: not an object of keys")
            continue
        for key, value in keys.items():
            en = reference[name].get(key)
            if en is None:
                wrong.append(f"{name} {key!r}: {REFERENCE}/{name} has no such key")
            elif isinstance(en, str) != isinstance(value, str) or not isinstance(value, (str, dict)):
                wrong.append(f"{name} {key!r}: {'a text' if isinstance(en, str) else 'plural forms'} in {REFERENCE}")
    if wrong:
        raise ValueError("; ".join(wrong))
    written = []
    for name, keys in translations.items():
        have = {**current.get(name, {}), **keys}
        ordered = {k: have[k] for k in reference[name] if k in have}
        ordered.update({k: v for k, v in have.items() if k not in ordered})  # left over: kept, reported
        path = root / lang / name
        path.write_text(json.dumps(ordered, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        written.append(f"{lang}/{name}")
    return written


def report(found: dict[str, dict], reference: dict[str, dict]) -> None:
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("langs", nargs="*", help=f"languages to check (default: all but {REFERENCE})")
    parser.add_argument("--json", action="store_true",
                        help="print the missing keys with their English text as JSON, nothing else")
    parser.add_argument("--merge", type=Path, metavar="FILE",
                        help="put the translations in FILE (the shape --json prints) into the one language named")
    parser.add_argument("--root", type=Path, default=I18N, help="the catalogues' folder (default: the dashboard's)")
    args = parser.parse_args(argv)
    root = args.root
    langs = args.langs or languages(root)
    unknown = [lang for lang in langs if not (root / lang).is_dir()]
    if unknown:
        print(f"no catalogues for {', '.join(unknown)}: the languages are {', '.join(languages(root))} "
              f"(folders of {root})", file=sys.stderr)
        return 2
    if args.merge:
        if len(langs) != 1 or langs[0] == REFERENCE:
            print(f"--merge: name the one language to merge into (not {REFERENCE})", file=sys.stderr)
            return 2
        try:
            written = merge(langs[0], json.loads(args.merge.read_text(encoding="utf-8")), root)
        except (OSError, ValueError) as exc:  # json.JSONDecodeError is a ValueError
            print(f"--merge {args.merge}: nothing written: {exc}", file=sys.stderr)
            return 2
        print(f"written: {', '.join(written) or 'nothing'}", file=sys.stderr)
    reference = catalogue(REFERENCE, root)
    found = {lang: differences(lang, root) for lang in langs}
    if args.json:
        todo = {lang: {name: {k: reference[name][k] for k in diff["missing"]}
                       for name, diff in files.items() if diff["missing"]} for lang, files in found.items()}
        json.dump(todo if len(langs) > 1 else todo[langs[0]], sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        report(found, reference)
    return 1 if any(found.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
