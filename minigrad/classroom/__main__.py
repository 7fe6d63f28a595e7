"""``python -m minigrad.classroom release notebooks/ --out student/``"""
import argparse
import sys

from .release import ReleaseError, release


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m minigrad.classroom",
                                     description="Make the student edition of the notebooks.")
    sub = parser.add_subparsers(dest="command", required=True)
    rel = sub.add_parser("release", help="write notebooks with solutions replaced by stubs")
    rel.add_argument("source", help="folder with the instructor notebooks, e.g. notebooks/")
    rel.add_argument("--out", default="student", help="folder to write the student notebooks to")
    args = parser.parse_args(argv)
    try:
        written = release(args.source, args.out)
    except ReleaseError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path}")
    print(f"{len(written)} student notebooks in {args.out.rstrip('/')}/ (solutions replaced by stubs, exercise outputs "
          "cleared)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
